/**
 * Limits on content files, far above anything the site needs, so that a damaged or hostile file
 * gets a diagnostic instead of exhausting the stack, the memory or the owner's patience. The
 * largest real file is about 16 KiB and the deepest nesting about 6 levels.
 */

/** The largest content file read (FILE002): a long article is some 100 KiB. */
export const MAX_FILE_BYTES = 256 * 1024;

/** The deepest nesting of JSON arrays and objects, or of markdown blocks and inline spans (DEPTH001). */
export const MAX_DEPTH = 64;
