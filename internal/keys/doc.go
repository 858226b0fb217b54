// Package keys owns the layout of every key dynago writes to Pebble and the
// order-preserving encodings of key attribute values.
//
// keys knows attribute values (package attr) but nothing of Pebble, of
// requests, or of non-key attributes: it turns key values into byte strings
// whose bytewise order is the order DynamoDB defines, and back.
//
// # Namespaces
//
// Every key starts with one namespace byte:
//
//	NSMeta (0x01)  catalog entries; the engine chooses what follows
//	NSData (0x02)  table and index rows
//	NSStream (0x03) stream records; the engine chooses what follows
//
// # Row keys
//
// A row of a base table or of a global secondary index is stored under
// (all integers big-endian):
//
//	NSData | tableID (8 bytes) | indexID (4 bytes) | hash (8 bytes) |
//	    enc(partition tuple) | enc(sort tuple) | [base key]
//
// indexID 0 is the base table; secondary indexes use other IDs chosen by the
// engine. hash is Hash(enc(partition tuple)), a 64-bit xxHash. Putting the
// hash before the partition values spreads partitions evenly over the
// index's key space, so a Scan visits partitions in hash order and a parallel
// Scan can cut the space into segments of equal width (SegmentBounds).
//
// For index rows the base key follows: enc(base partition tuple) |
// enc(base sort tuple), with no hash. It makes index rows unique (many items
// may share one index key) and lets a reader find the base row.
//
// The partition tuple holds the values of the partition key attributes in
// schema order: one for a base table, one to four for a secondary index
// (DynamoDB multi-attribute keys). The sort tuple holds zero or one value for
// a base table and zero to four for an index.
//
// A vector index's approximate index keeps its records under
// VectorGraphPrefix, inside the index's prefix but apart from its rows.
//
// # Value encodings
//
// Each tuple element is an S, N or B value, encoded without a type tag (the
// schema gives the types) so that each encoding is self-delimiting and
// prefix-free: no encoding is a proper prefix of another. Hence the
// concatenation of elements sorts element by element, and a tuple sorts
// lexicographically over its elements.
//
// S and B are encoded alike, from the UTF-8 bytes of S and the raw bytes of B:
// every byte is copied except 0x00, which becomes 0x00 0xFF, and the value
// ends with 0x00 0x01. Bytewise order of the encodings is the unsigned
// bytewise order of the values (which is DynamoDB's order for both types).
//
// N is encoded by numeric value. A nonzero number is written as
// ±0.d1d2…dk × 10^E with d1 ≠ 0 and dk ≠ 0 (at most 38 digits). DynamoDB's
// range, 1E-130 to 9.9999999999999999999999999999999999999E+125, is exactly
// E ∈ [-129, 126], 256 exponents, so E+129 fits one byte. The encoding is
//
//	negative  0x01 | ^(E+129) | ^digits
//	zero      0x02
//	positive  0x03 | E+129    | digits
//
// where digits packs one digit per 4-bit nibble, digit d as nibble d+1,
// followed by a 0 nibble that ends the number and, if that leaves half a
// byte, one more 0 nibble; ^ complements every byte, so that greater
// magnitudes sort first among negative numbers. Equal numbers ("1", "1.0",
// "10E-1") have one encoding, and decoding yields DynamoDB's canonical text
// (plain notation, no exponent, no redundant zeros: "-12.5", "100",
// "0.001").
//
// # Reading ranges
//
// Every range this package returns is half-open, [lower, upper):
//
//   - a table, an index or a partition: the prefix and PrefixEnd(prefix);
//   - a parallel-scan segment: SegmentBounds;
//   - a Query sort key condition (=, <, <=, >, >=, BETWEEN, begins_with,
//     with equalities on leading elements of a multi-attribute sort key):
//     SortKeyRange on a PartitionPrefix;
//   - a resumed read (ExclusiveStartKey): ResumeAfter, which starts at
//     Successor(last row key), or ResumeBefore for backward reads.
//
// The largest key values a client can send (an S of 256 × U+10FFFF, a B of
// 1024 0xFF bytes, N 9.9999999999999999999999999999999999999E+125) encode
// like any other value, and resuming after them leaves their partition.
//
// # Invariants
//
// Bytewise order of row keys of one index is (hash, partition tuple, sort
// tuple, base key) order. All rows of one partition share the prefix
// PartitionPrefix returns; all rows of an index share IndexPrefix; all rows
// of a table, every index included, share TablePrefix.
//
// Everything in this package's byte layout is written to disk: the
// namespace bytes, the widths and order of the row key fields, the hash
// function and the value encodings. Do not change them without a data
// migration.
package keys

// Namespace bytes. Do not change: written to disk.
const (
	// NSMeta starts every catalog key. The engine decides what follows.
	NSMeta byte = 0x01
	// NSData starts every row key of every table and index.
	NSData byte = 0x02
	// NSStream starts every stream record key. The engine decides what
	// follows (a stream id and a sequence number).
	NSStream byte = 0x03
)

// BaseIndexID is the index ID of a table's base rows. Do not change:
// written to disk.
const BaseIndexID uint32 = 0

// Encoding constants. Do not change: written to disk.
const (
	// escByte introduces an escape or terminator inside an S or B encoding.
	escByte byte = 0x00
	// escZero follows escByte to stand for a 0x00 byte of the value.
	escZero byte = 0xFF
	// escEnd follows escByte to end an S or B encoding.
	escEnd byte = 0x01

	// numNeg, numZero and numPos are the first byte of an N encoding.
	numNeg  byte = 0x01
	numZero byte = 0x02
	numPos  byte = 0x03

	// numExpBias is added to the exponent E (value = 0.d1d2… × 10^E)
	// to form the exponent byte.
	numExpBias = 129
)

// Limits of DynamoDB numbers and keys.
const (
	// MaxNumberDigits is the most significant digits an N value may have.
	MaxNumberDigits = 38
	// MinNumberExp and MaxNumberExp bound E for a nonzero number written
	// 0.d1d2…dk × 10^E; they are DynamoDB's 1E-130 and
	// 9.9999999999999999999999999999999999999E+125.
	MinNumberExp = -129
	MaxNumberExp = 126

	// MaxKeyAttrs is the most attributes a partition or sort tuple may
	// hold (four, for multi-attribute keys of a secondary index).
	MaxKeyAttrs = 4

	// headerLen is the length of NSData | tableID | indexID | hash.
	headerLen = 1 + 8 + 4 + 8
	// indexPrefixLen is the length of NSData | tableID | indexID.
	indexPrefixLen = 1 + 8 + 4
	// tablePrefixLen is the length of NSData | tableID.
	tablePrefixLen = 1 + 8
)
