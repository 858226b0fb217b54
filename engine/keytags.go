package engine

// The on-disk tags of the engine's own rows, in one table. Every key the
// engine writes starts with a namespace byte of internal/keys: NSData
// (table and index rows, laid out by internal/keys), NSStream (stream
// records: streamID(8) | seq(8)) or NSMeta, whose second byte is one of
// the tags below. The layout after each tag is described where the rows
// are written (the file named beside it).
//
// Do not change, reorder or reuse these values: they are written to disk,
// by Pebble and in PostgreSQL alike. A new kind of row takes a byte no
// entry has; TestMetaTagsUnique fails on a byte used twice.
const (
	// Catalog (catalog.go).
	metaTagTable      = 't' // name -> JSON tableMeta
	metaTagSeq        = 'q' // counter: the last table id handed out
	metaTagStats      = 's' // table id(8) -> counters: item count, item bytes
	metaTagIndexStats = 'x' // table id(8) index id(4) -> counters: entries, bytes
	metaTagBackfill   = 'f' // table id(8) index id(4) -> a running backfill's cursor

	// Streams (streams.go).
	metaTagStream    = 'm' // stream id(8) -> JSON streamMeta
	metaTagShard     = 'h' // stream id(8) shard index(4) -> JSON shardMeta
	metaTagStreamSeq = 'w' // counter: the last stream id handed out
	metaTagReserved  = 'n' // stream id(8) -> numbers below are reserved
	metaTagTrimmed   = 'r' // stream id(8) -> numbers below are trimmed

	// Transaction tokens (transact_token.go).
	metaTagToken       = 'k' // token -> fingerprint(32) expiry(8)
	metaTagTokenExpiry = 'e' // expiry(8) token -> nothing: tokens by expiry

	// Several nodes on one store (shared.go, shared_streams.go).
	metaTagNode      = 'N' // node id -> heartbeat counter and stream watermark
	metaTagLease     = 'L' // lease name -> node id | 0 | epoch(8)
	metaTagFence     = 'F' // node id -> nothing: the node is fenced
	metaTagStreamPos = 'P' // stream id(8) row key -> seq(8) of the item's last record

	// Backups and restores (backup.go, restore.go).
	metaTagBackup  = 'B' // backup ARN -> JSON backupMeta
	metaTagRestore = 'R' // table id(8) -> JSON restoreJob: a restore in progress

	// Exports and imports (export.go, import.go).
	metaTagExport = 'E' // export ARN -> JSON exportMeta
	metaTagImport = 'I' // import ARN -> JSON importMeta

	// The database's own settings (account.go).
	metaTagAccount = 'a' // -> the account id in the database's ARNs
)
