package engine

import (
	"fmt"
	"sort"
	"strings"
)

// maxTagsPerResource is DynamoDB's limit on tags per table.
// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/Tagging.html
const maxTagsPerResource = 50

// TagResource adds or replaces tags on a table.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_TagResource.html
func (db *DB) TagResource(in *TagResourceInput) error {
	var c constraints
	c.resourceArn(in.ResourceArn)
	if in.Tags == nil {
		c.add("Value null at 'tags' failed to satisfy constraint: Member must not be null")
	}
	for i, tg := range in.Tags {
		c.tag(i, tg)
	}
	if err := c.err(); err != nil {
		return err
	}
	if err := validateTags(in.Tags); err != nil {
		return err
	}
	return db.changeTags(in.ResourceArn, func(tags map[string]string) error {
		for _, tg := range in.Tags {
			tags[tg.Key] = tg.Value
		}
		if len(tags) > maxTagsPerResource {
			return &Error{Code: CodeLimitExceeded, Message: fmt.Sprintf("The number of tags on the resource exceeds the limit of %d", maxTagsPerResource)}
		}
		return nil
	})
}

// UntagResource removes tags from a table.
func (db *DB) UntagResource(in *UntagResourceInput) error {
	var c constraints
	c.resourceArn(in.ResourceArn)
	if in.TagKeys == nil {
		c.add("Value null at 'tagKeys' failed to satisfy constraint: Member must not be null")
	}
	if err := c.err(); err != nil {
		return err
	}
	return db.changeTags(in.ResourceArn, func(tags map[string]string) error {
		for _, k := range in.TagKeys {
			delete(tags, k)
		}
		return nil
	})
}

// ListTagsOfResource lists a table's tags, sorted by key.
func (db *DB) ListTagsOfResource(in *ListTagsOfResourceInput) (*ListTagsOfResourceOutput, error) {
	var c constraints
	c.resourceArn(in.ResourceArn)
	if err := c.err(); err != nil {
		return nil, err
	}
	t, err := db.tableByARN(in.ResourceArn)
	if err != nil {
		return nil, err
	}
	tags := append([]Tag{}, t.meta.Tags...)
	sort.Slice(tags, func(i, j int) bool { return tags[i].Key < tags[j].Key })
	return &ListTagsOfResourceOutput{Tags: tags}, nil
}

func (c *constraints) resourceArn(arn string) {
	if arn == "" {
		c.add("Value null at 'resourceArn' failed to satisfy constraint: Member must not be null")
	} else if len(arn) > 1283 {
		c.add("Value '%s' at 'resourceArn' failed to satisfy constraint: Member must have length less than or equal to 1283", arn)
	}
}

func (c *constraints) tag(i int, tg Tag) {
	if tg.Key == "" {
		c.add("Value null at 'tags.%d.member.key' failed to satisfy constraint: Member must not be null", i+1)
	} else if len([]rune(tg.Key)) > 128 {
		c.add("Value '%s' at 'tags.%d.member.key' failed to satisfy constraint: Member must have length less than or equal to 128", tg.Key, i+1)
	}
	if len([]rune(tg.Value)) > 256 {
		c.add("Value '%s' at 'tags.%d.member.value' failed to satisfy constraint: Member must have length less than or equal to 256", tg.Value, i+1)
	}
}

// validateTags applies the tag rules beyond member constraints.
func validateTags(tags []Tag) error {
	for _, tg := range tags {
		if strings.HasPrefix(tg.Key, "aws:") {
			return Validation("One or more parameter values were invalid: Tag keys with the prefix aws: are reserved for AWS use")
		}
	}
	if len(tags) > maxTagsPerResource {
		return &Error{Code: CodeLimitExceeded, Message: fmt.Sprintf("The number of tags on the resource exceeds the limit of %d", maxTagsPerResource)}
	}
	return nil
}

// tableByARN finds the table a resource ARN names.
func (db *DB) tableByARN(arn string) (*table, error) {
	if db.closed.Load() {
		return nil, ErrClosed
	}
	if !strings.HasPrefix(arn, "arn:") || !strings.Contains(arn, ":table/") {
		return nil, Validation("Invalid TableArn: Invalid ResourceArn provided as input " + arn)
	}
	t := db.lookup(arn)
	if t == nil || t.arn(db) != arn {
		return nil, NotFound(fmt.Sprintf("Requested resource not found: ResourcArn: %s not found", arn))
	}
	return t, nil
}

// changeTags rewrites a table's tags under the DDL lock.
func (db *DB) changeTags(arn string, change func(map[string]string) error) error {
	db.ddl.Lock()
	defer db.ddl.Unlock()
	t, err := db.tableByARN(arn)
	if err != nil {
		return err
	}
	tags := map[string]string{}
	for _, tg := range t.meta.Tags {
		tags[tg.Key] = tg.Value
	}
	if err := change(tags); err != nil {
		return err
	}
	m := t.meta
	m.Tags = make([]Tag, 0, len(tags))
	for k, v := range tags {
		m.Tags = append(m.Tags, Tag{Key: k, Value: v})
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
