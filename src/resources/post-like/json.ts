import { Type } from '@sinclair/typebox';
import { int, str, strict } from '../../http/schemas.js';

/**
 * Wire formats of what events, venues and organizers share: statuses, wall-clock dates, images and
 * global IDs (events.md 1, venues-organizers.md 1.1/1.2).
 */

const WALL_TIME = '^\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}:\\d{2}$';
/** A `YYYY-MM-DD HH:MM:SS` wall-clock time. */
export const wall = (description: string) => Type.String({ description, pattern: WALL_TIME });

/** Publication and last-change dates of a record, in their key order (events.md 1). */
export const PublicationDates = {
  date: wall('Publication date, site time zone.'),
  date_utc: wall('Publication date, UTC.'),
  modified: wall('Last change, site time zone.'),
  modified_utc: wall('Last change, UTC.'),
};

export const PostStatus = Type.Union(
  ['publish', 'future', 'draft', 'pending', 'private', 'trash'].map((s) => Type.Literal(s)),
  { description: 'Publication status of the record.' },
);

export const ImageSizeJson = Type.Object(
  {
    width: int('Width in pixels.'),
    height: int('Height in pixels.'),
    'mime-type': str('MIME type of the file.'),
    filesize: Type.Optional(int('File size in bytes.')),
    url: str('URL of the file.'),
  },
  { ...strict, description: 'One generated size of an image.' },
);

export const ImageJson = Type.Object(
  {
    url: str('URL of the full-size image.'),
    id: int('ID of the image record.'),
    extension: Type.Optional(str('File extension, e.g. jpg.')),
    width: Type.Optional(int('Width in pixels.')),
    height: Type.Optional(int('Height in pixels.')),
    filesize: Type.Optional(int('File size in bytes.')),
    sizes: Type.Optional(
      Type.Record(Type.String(), ImageSizeJson, { description: 'Generated sizes keyed by size name.' }),
    ),
  },
  { ...strict, description: 'A featured image; keys without a value are left out.' },
);

export const JsonLd = Type.Record(Type.String(), Type.Unknown(), {
  description: 'schema.org data (single reads only).',
});

export const GlobalId = str('Global ID: site host and path plus ?id= and the record ID.');
export const GlobalIdLineage = Type.Array(Type.String(), {
  description: 'The global ID followed by any imported lineage IDs.',
});
