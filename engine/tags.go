package engine

import (
	"github.com/dynago/dynago/dynamo"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxTagsPerResource is DynamoDB's limit on tags per table.
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Tagging.html
const maxTagsPerResource = 50

// TagResource adds or replaces tags on a table.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TagResource.html
func (db *DB) TagResource(in *dynamo.TagResourceInput) error {
	_, err := run(db, opTagResource, func() (struct{}, error) { return struct{}{}, db.tagResource(in) })
	return err
}

func (db *DB) tagResource(in *dynamo.TagResourceInput) error {
	var c constraints
	c.resourceArn(in.ResourceArn)
	if in.Tags == nil {
		c.notNull("tags")
	}
	if err := c.err(); err != nil {
		return err
	}
	if len(in.Tags) == 0 {
		return dynamo.Validation(msgNoTags)
	}
	if err := validateTags(in.Tags); err != nil {
		return err
	}
	return db.changeTags(in.ResourceArn, true, func(tags map[string]string) error {
		for _, tg := range in.Tags {
			tags[tg.Key] = tg.Value
		}
		// The limit applies to the tags the table would have
		// (DDB-TABLE-108 of the ack-api-quirks lab).
		if len(tags) > maxTagsPerResource {
			return dynamo.Validation(msgTooManyTags)
		}
		return nil
	})
}

// UntagResource removes tags from a table. A key the table does not
// have is no error; an invalid or reserved one is, and so are more than
// 50 keys (DDB-TABLE-105 and -107 of the ack-api-quirks lab).
func (db *DB) UntagResource(in *dynamo.UntagResourceInput) error {
	_, err := run(db, opUntagResource, func() (struct{}, error) { return struct{}{}, db.untagResource(in) })
	return err
}

func (db *DB) untagResource(in *dynamo.UntagResourceInput) error {
	var c constraints
	c.resourceArn(in.ResourceArn)
	if in.TagKeys == nil {
		c.notNull("tagKeys")
	}
	if err := c.err(); err != nil {
		return err
	}
	if len(in.TagKeys) == 0 {
		return dynamo.Validation(msgNoTagKeys)
	}
	for _, k := range in.TagKeys {
		if err := validateTagKey(k); err != nil {
			return err
		}
	}
	if len(in.TagKeys) > maxTagsPerResource {
		return dynamo.Validation(msgTooManyTags)
	}
	return db.changeTags(in.ResourceArn, false, func(tags map[string]string) error {
		for _, k := range in.TagKeys {
			delete(tags, k)
		}
		return nil
	})
}

// ListTagsOfResource lists a table's tags, sorted by key.
func (db *DB) ListTagsOfResource(in *dynamo.ListTagsOfResourceInput) (*dynamo.ListTagsOfResourceOutput, error) {
	return run(db, opListTagsOfResource, func() (*dynamo.ListTagsOfResourceOutput, error) { return db.listTagsOfResource(in) })
}

func (db *DB) listTagsOfResource(in *dynamo.ListTagsOfResourceInput) (*dynamo.ListTagsOfResourceOutput, error) {
	var c constraints
	c.resourceArn(in.ResourceArn)
	if err := c.err(); err != nil {
		return nil, err
	}
	t, err := db.tableByARN(in.ResourceArn)
	if err != nil {
		return nil, err
	}
	// A CREATING table's tags are unreadable until it is ACTIVE (the
	// ack-api-quirks catalogue, DDB-TABLE-101: an empty set, once the
	// table is known); a DELETING table's are gone (DDB-TABLE-104).
	switch db.tableStatus(t) {
	case dynamo.TableStatusCreating:
		return &dynamo.ListTagsOfResourceOutput{Tags: []dynamo.Tag{}}, nil
	case dynamo.TableStatusDeleting:
		return nil, dynamo.NotFound(msgArnNotFound(in.ResourceArn))
	}
	tags := append([]dynamo.Tag{}, apiTags(t.meta.Tags)...)
	sort.Slice(tags, func(i, j int) bool { return tags[i].Key < tags[j].Key })
	return &dynamo.ListTagsOfResourceOutput{Tags: tags}, nil
}

func (c *constraints) resourceArn(arn string) {
	if arn == "" {
		c.notNull("resourceArn")
	} else if len(arn) > 1283 {
		c.add("Value '%s' at 'resourceArn' failed to satisfy constraint: Member must have length less than or equal to 1283", arn)
	}
}

// Tag rules: a key of 1 to 128 characters, a value of up to 256, both of
// letters (of any script), digits, white space and + - = . _ : / @ only,
// which is the pattern AWS gives for tags, ^([\p{L}\p{Z}\p{N}_.:/=+\-@]*)$
// (the ack-api-quirks lab, DDB-TABLE-106, -107 and -372: Cyrillic, CJK
// and NBSP accepted; emoji, %, comma, quotes, parentheses, &, *, ;, ?, |,
// backslash, <, > and ~ refused).
const (
	maxTagKeyChars   = 128
	maxTagValueChars = 256
)

func validTagText(s string, maxChars int) bool {
	if utf8.RuneCountInString(s) > maxChars {
		return false
	}
	for _, r := range s {
		switch {
		case unicode.IsLetter(r), unicode.IsNumber(r), unicode.Is(unicode.Z, r):
		case strings.ContainsRune("_.:/=+-@", r):
		default:
			return false
		}
	}
	return true
}

// validateTagKey applies the rules of a tag key, for TagResource,
// UntagResource and CreateTable.
func validateTagKey(key string) error {
	if key == "" || !validTagText(key, maxTagKeyChars) {
		return dynamo.Validation(dynamo.MsgTagKeyInvalid(key))
	}
	if len(key) >= 4 && strings.EqualFold(key[:4], "aws:") {
		return dynamo.Validation(msgTagKeyAWSPrefix(key))
	}
	return nil
}

// validateTags applies the tag rules to the Tags of a TagResource or a
// CreateTable, in order, then refuses a key given twice and more than 50
// tags.
func validateTags(tags []dynamo.Tag) error {
	seen := make(map[string]bool, len(tags))
	for _, tg := range tags {
		if err := validateTagKey(tg.Key); err != nil {
			return err
		}
		if !validTagText(tg.Value, maxTagValueChars) {
			return dynamo.Validation(dynamo.MsgTagValueInvalid(tg.Value))
		}
		if seen[tg.Key] {
			return dynamo.Validation(msgTagKeyDuplicate(tg.Key))
		}
		seen[tg.Key] = true
	}
	if len(tags) > maxTagsPerResource {
		return dynamo.Validation(msgTooManyTags)
	}
	return nil
}

// tableByARN finds the table a resource ARN names, or gives DynamoDB's
// answer for one that names no table of this account and region (see
// msgArnNoPrefix and the texts after it).
func (db *DB) tableByARN(arn string) (*table, error) {
	if db.closed.Load() {
		return nil, ErrClosed
	}
	if !strings.HasPrefix(arn, "arn:") {
		return nil, dynamo.Validation(msgArnNoPrefix(arn))
	}
	f := strings.SplitN(arn, ":", 6)
	if len(f) != 6 || f[1] == "" || f[2] != "dynamodb" || f[3] == "" || f[4] == "" || !strings.HasPrefix(f[5], "table/") {
		return nil, dynamo.Validation(msgArnNotDynamoDB(arn))
	}
	name, sub, hasSub := strings.Cut(strings.TrimPrefix(f[5], "table/"), "/")
	if hasSub {
		switch kind, _, _ := strings.Cut(sub, "/"); kind {
		case "index":
			return nil, dynamo.Validation(msgArnNotTableOrStream(arn))
		case "stream":
			// DynamoDB answers a stream's ARN as a resource it does
			// not find (DDB-TABLE-071); dynago has no tags on streams.
			return nil, dynamo.NotFound(msgArnNotFound(arn))
		default:
			return nil, dynamo.Validation(msgArnNotDynamoDB(arn))
		}
	}
	if f[3] != db.opts.Region {
		return nil, dynamo.Validation(msgInvalidTableArn(arn))
	}
	if f[4] != db.opts.AccountID {
		return nil, dynamo.AccessDenied(msgArnNotAllowed)
	}
	// Tag operations decide on the table as a shared store has it now.
	t, err := db.lookupFresh(name)
	if err != nil {
		return nil, err
	}
	if t == nil || strings.HasPrefix(name, "arn:") {
		return nil, dynamo.NotFound(msgArnNotFound(arn))
	}
	return t, nil
}

// changeTags rewrites a table's tags under the DDL lock; adding is true
// for TagResource.
//
// In a transition (the ack-api-quirks catalogue): TagResource of a
// CREATING table is ResourceInUseException "Table is being created"
// (DDB-TABLE-101; DynamoDB answers ResourceNotFoundException for most of
// the window first, as its tagging backend lags: chose the in-use answer
// throughout), and of a DELETING one "Table is being deleted"
// (DDB-TABLE-104, its first second; chose it throughout); UntagResource
// of a CREATING table succeeds (DDB-TABLE-101), of a DELETING one is
// ResourceNotFoundException (DDB-TABLE-104); an UPDATING table admits
// both (DDB-TABLE-104).
func (db *DB) changeTags(arn string, adding bool, change func(map[string]string) error) error {
	db.ddl.Lock()
	defer db.ddl.Unlock()
	t, err := db.tableByARN(arn)
	if err != nil {
		return err
	}
	switch db.tableStatus(t) {
	case dynamo.TableStatusCreating:
		if adding {
			return db.inUse(t)
		}
	case dynamo.TableStatusDeleting:
		if adding {
			return db.inUse(t)
		}
		return dynamo.NotFound(msgArnNotFound(arn))
	}
	tags := map[string]string{}
	for _, tg := range t.meta.Tags {
		tags[tg.Key] = tg.Value
	}
	if err := change(tags); err != nil {
		return err
	}
	m := t.meta
	m.Tags = make([]catTag, 0, len(tags))
	for k, v := range tags {
		m.Tags = append(m.Tags, catTag{Key: k, Value: v})
	}
	sort.Slice(m.Tags, func(i, j int) bool { return m.Tags[i].Key < m.Tags[j].Key })
	b := db.store.NewBatch()
	defer b.Close()
	nt := newTable(m)
	next, err := db.putTableLocked(b, nt)
	if err != nil {
		return err
	}
	if err := b.Commit(); err != nil {
		return err
	}
	db.tables.Store(&next)
	return nil
}
