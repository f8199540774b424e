/** The five WordPress roles and the capabilities each holds (common.md 7.3). */
export const ROLES = ['administrator', 'editor', 'author', 'contributor', 'subscriber'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: string): value is Role {
  return (ROLES as readonly string[]).includes(value);
}

/** Primitive capabilities over post-like records (the same set for events, venues and organizers). */
export type PostCapability =
  | 'read'
  | 'edit_posts'
  | 'edit_published_posts'
  | 'edit_others_posts'
  | 'edit_private_posts'
  | 'read_private_posts'
  | 'publish_posts'
  | 'delete_posts'
  | 'delete_published_posts'
  | 'delete_others_posts'
  | 'delete_private_posts';

/** Other capabilities the interface uses; `import` is administrators' only, as in WordPress. */
export type SiteCapability =
  'upload_files' | 'unfiltered_html' | 'manage_event_categories' | 'manage_categories' | 'import';

export type Capability = PostCapability | SiteCapability;

const editor: Capability[] = [
  'read',
  'edit_posts',
  'edit_published_posts',
  'edit_others_posts',
  'edit_private_posts',
  'read_private_posts',
  'publish_posts',
  'delete_posts',
  'delete_published_posts',
  'delete_others_posts',
  'delete_private_posts',
  'upload_files',
  'unfiltered_html',
  'manage_event_categories',
  'manage_categories',
];

export const ROLE_CAPABILITIES: Record<Role, ReadonlySet<Capability>> = {
  administrator: new Set<Capability>([...editor, 'import']),
  editor: new Set(editor),
  author: new Set<Capability>([
    'read',
    'edit_posts',
    'edit_published_posts',
    'publish_posts',
    'delete_posts',
    'delete_published_posts',
    'upload_files',
    'manage_event_categories',
  ]),
  contributor: new Set<Capability>(['read', 'edit_posts', 'delete_posts']),
  subscriber: new Set<Capability>(['read']),
};
