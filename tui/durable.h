/*
 * durable.h - making a replaced file survive a crash.
 *
 * write temp, fsync(temp), rename(temp, path) makes the new bytes safe,
 * but the rename itself is only an entry in the directory: until the
 * directory is fsynced too, a crash can bring back the old file or none.
 */
#ifndef SP_DURABLE_H
#define SP_DURABLE_H

/* fsync the directory that holds path (".": the current one). 0, or -1
 * with errno set. */
int durable_sync_dir_of(const char *path);

#endif
