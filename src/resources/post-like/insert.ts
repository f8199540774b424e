import { preparedInsert } from '../../db/prepared.js';

/** Inserts the `posts` row of a new event, venue or organizer; returns its ID. */
export const insertPost = preparedInsert<{ id: number }>('posts', ['id']);
