/** Record IDs are 32-bit integer columns: larger numbers name no record (and must not reach PostgreSQL). */
export const MAX_RECORD_ID = 2_147_483_647;

export function isRecordId(value: number | undefined): value is number {
  return value !== undefined && Number.isInteger(value) && value > 0 && value <= MAX_RECORD_ID;
}
