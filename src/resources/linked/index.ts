export type { LinkedKind } from './kind.js';
export { venueKind } from './venue.js';
export { organizerKind } from './organizer.js';
export { linkedRoutes } from './routes.js';
export { publishLinkedOfEvent } from './write.js';
export {
  embeddedLinked,
  loadLinkedForEvents,
  resolveLinkedInput,
  setEventLinks,
  validateLinkedFilter,
  validateLinkedInput,
} from './inline.js';
