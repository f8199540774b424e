/**
 * A backup, export or import refused or failed for a reason the operator can act on, said in one
 * line (the CLI prints it without a stack).
 */
export class OpsError extends Error {}
