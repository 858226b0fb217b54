// Package pebblestore is the embedded store: storage.Store on Pebble, one
// instance per data directory (or in memory), written by this process
// alone. It owns what only Pebble needs: opening and locking the
// directory, the durability modes and owner-only files (its filesystem
// wrapper), counters as a merge operator, the background reclaiming of
// deleted ranges' space, and the free-space reserve that refuses writes on
// a nearly full disk. The engine opens it by default; the PostgreSQL store,
// for several nodes sharing one database, is internal/storage/pgstore.
//
// # Pebble's guarantees
//
//   - Commit returns only after the batch is in the write-ahead log, handed
//     to the operating system: an acknowledged write survives the death of
//     the process at any instant. With Options.Sync the log is also synced
//     (fsync) first, so it survives the loss of the machine too.
//   - A batch becomes visible to readers when Pebble applies it to the
//     memtable, which can be a few microseconds before its log write (or
//     fsync) finishes and Commit returns. A read in that window can see a
//     write that a crash at that instant loses; no acknowledged write can
//     depend on it, as the log is written in commit order.
//   - Only this process writes the directory (it holds its lock), so
//     Batch.Expect records nothing: the engine's item locks serialise
//     conflicting writes.
//   - Counters are kept with a merge operator, so adding to one is a blind
//     write.
package pebblestore
