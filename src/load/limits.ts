/**
 * Limits on content files, far above anything the site needs, so that a damaged or hostile file
 * gets a diagnostic instead of exhausting the stack, the memory or the owner's patience. The
 * site's own files are a small fraction of the size and nest a small fraction of the depth.
 */

/** The largest content file read (FILE002): a long article is some 100 KiB. */
export const MAX_FILE_BYTES = 256 * 1024;

/** The deepest nesting of JSON arrays and objects, or of markdown blocks and inline spans (DEPTH001). */
export const MAX_DEPTH = 64;
