package engine

import "fmt"

// Texts of DynamoDB's limits on key and index key sizes, each with where it
// comes from. Kept apart from messages.go so that limit changes touch one
// file.

// msgHashKeyTooLarge: a partition key value above maxPartitionKeyBytes.
// "of2048" without a space is DynamoDB's text, recorded by dynalite's
// test/putItem.js ("should return ValidationException if hash key is too
// big") against DynamoDB.
var msgHashKeyTooLarge = fmt.Sprintf("One or more parameter values were invalid: Size of hashkey has exceeded the maximum size limit of%d bytes", maxPartitionKeyBytes)

// msgRangeKeyTooLarge: a sort key value above maxSortKeyBytes. Recorded by
// dynalite's test/putItem.js ("should return ValidationException if range
// key is too big") and quoted in Alternator's test_limits.py
// (test_limit_sort_key_len_1024), both run against DynamoDB.
var msgRangeKeyTooLarge = fmt.Sprintf("One or more parameter values were invalid: Aggregated size of all range keys has exceeded the size limit of %d bytes", maxSortKeyBytes)

// msgIndexKeyTooLarge: an item whose secondary index key value is larger
// than the index allows (2048 bytes for a partition key attribute, 1024
// for a sort key one), e.g. "... Size limit exceeded for Index Key c Actual
// Size: 43398 bytes Max Size: 2048 bytes IndexName: index4", quoted from
// DynamoDB's responses in public bug reports. A backfill skips such an item
// instead (it is not indexed): see index.indexKey.
func msgIndexKeyTooLarge(name string, size, limit int, index string) string {
	return fmt.Sprintf("One or more parameter values were invalid: Size limit exceeded for Index Key %s Actual Size: %d bytes Max Size: %d bytes IndexName: %s", name, size, limit, index)
}
