package engine

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dynago/dynago/dynamo"
)

// CloudWatch Contributor Insights for DynamoDB: its state per table and
// global secondary index, stored in the table's catalog entry. dynago
// has no CloudWatch to publish rules to; it keeps what
// UpdateContributorInsights sets and describes it as DynamoDB does.
//
// UpdateContributorInsights answers ENABLING (DISABLING), and a later
// DescribeContributorInsights ENABLED (DISABLED), as the AWS CLI's
// examples record (update-contributor-insights, then
// describe-contributor-insights, in the AWS CLI's
// awscli/examples/dynamodb). Without Options.TransientDelay the change
// is done at once, so the next describe shows its end; with one, the
// describe shows ENABLING (DISABLING) for that long.
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_UpdateContributorInsights.html

// insightsMeta is the Contributor Insights state of a table or index.
type insightsMeta struct {
	Enabled bool   `json:"enabled,omitempty"`
	Mode    string `json:"mode,omitempty"`
	// Since is when it was last enabled: its rules are named after it.
	Since time.Time `json:"since,omitzero"`
	// Updated is when it was last enabled or disabled.
	Updated time.Time `json:"updated"`
}

// insightsStatus is the status x shows at now.
func (db *DB) insightsStatus(x insightsMeta, now time.Time) string {
	settling := db.opts.TransientDelay > 0 && now.Before(x.Updated.Add(db.opts.TransientDelay))
	switch {
	case x.Enabled && settling:
		return dynamo.ContributorInsightsEnabling
	case x.Enabled:
		return dynamo.ContributorInsightsEnabled
	case settling:
		return dynamo.ContributorInsightsDisabling
	}
	return dynamo.ContributorInsightsDisabled
}

// insightsRules names the CloudWatch rules of an enabled table or index
// as DynamoDB does: DynamoDBContributorInsights-<rule>-<table>-<epoch
// milliseconds it was enabled>, a partition key rule of accessed (PKC)
// and throttled (PKT) keys, and sort key ones (SKC, SKT) where the key
// has a sort key, in the order the AWS CLI's describe-contributor-insights
// example lists them.
func insightsRules(t *table, ix *index, since time.Time) []string {
	sorted := t.rangeName != ""
	if ix != nil {
		sorted = len(ix.rng) > 0
	}
	suffix := "-" + t.meta.Name + "-" + strconv.FormatInt(since.UnixMilli(), 10)
	kinds := []string{"PKC", "PKT"}
	if sorted {
		kinds = []string{"PKC", "SKC", "PKT", "SKT"}
	}
	rules := make([]string, len(kinds))
	for i, k := range kinds {
		rules[i] = "DynamoDBContributorInsights-" + k + suffix
	}
	return rules
}

// insightsTarget finds the table and, for a non-empty indexName, its
// global secondary index.
func (db *DB) insightsTarget(tableName, indexName string) (*table, *index, error) {
	t, err := db.freshTable(tableName)
	if err != nil {
		return nil, nil, err
	}
	if indexName == "" {
		return t, nil, nil
	}
	ix := t.index(indexName)
	if ix == nil || !ix.meta.Global {
		// The ack-api-quirks lab, DDB-TABLE-446 (recorded 2026-10-09).
		return nil, nil, dynamo.NotFound(msgIndexNotFoundPrefix + indexName + " not found for table: " + t.meta.Name)
	}
	return t, ix, nil
}

// insightsChecks checks the members the three operations share.
func insightsChecks(c *constraints, tableName, indexName string) {
	c.tableOpName(tableName)
	c.indexName(indexName)
}

// DescribeContributorInsights describes Contributor Insights of a table
// or one of its global secondary indexes.
func (db *DB) DescribeContributorInsights(in *dynamo.DescribeContributorInsightsInput) (*dynamo.DescribeContributorInsightsOutput, error) {
	return run(db, opDescribeContributorInsights, func() (*dynamo.DescribeContributorInsightsOutput, error) {
		return db.describeContributorInsights(in)
	})
}

func (db *DB) describeContributorInsights(in *dynamo.DescribeContributorInsightsInput) (*dynamo.DescribeContributorInsightsOutput, error) {
	if in.NoTableName {
		return nil, dynamo.Validation(dynamo.MsgTableNameRequired)
	}
	var c constraints
	insightsChecks(&c, in.TableName, in.IndexName)
	if err := c.err(); err != nil {
		return nil, err
	}
	t, ix, err := db.insightsTarget(in.TableName, in.IndexName)
	if err != nil {
		return nil, err
	}
	out := &dynamo.DescribeContributorInsightsOutput{
		TableName: t.meta.Name, IndexName: in.IndexName,
		ContributorInsightsStatus: dynamo.ContributorInsightsDisabled,
	}
	x, ok := t.meta.Insights[in.IndexName]
	if !ok {
		return out, nil
	}
	out.ContributorInsightsStatus = db.insightsStatus(x, db.now())
	out.LastUpdateDateTime = x.Updated
	if x.Enabled {
		out.ContributorInsightsMode = x.Mode
		out.ContributorInsightsRuleList = insightsRules(t, ix, x.Since)
	}
	return out, nil
}

// UpdateContributorInsights enables or disables Contributor Insights of a
// table or one of its global secondary indexes.
func (db *DB) UpdateContributorInsights(in *dynamo.UpdateContributorInsightsInput) (*dynamo.UpdateContributorInsightsOutput, error) {
	return run(db, opUpdateContributorInsights, func() (*dynamo.UpdateContributorInsightsOutput, error) {
		return db.updateContributorInsights(in)
	})
}

func (db *DB) updateContributorInsights(in *dynamo.UpdateContributorInsightsInput) (*dynamo.UpdateContributorInsightsOutput, error) {
	if in.NoTableName {
		return nil, dynamo.Validation(dynamo.MsgTableNameRequired)
	}
	var c constraints
	insightsChecks(&c, in.TableName, in.IndexName)
	if in.ContributorInsightsAction == "" {
		c.notNull("contributorInsightsAction")
	} else {
		c.enum("contributorInsightsAction", in.ContributorInsightsAction,
			dynamo.ContributorInsightsActionEnable, dynamo.ContributorInsightsActionDisable)
	}
	c.enum("contributorInsightsMode", in.ContributorInsightsMode,
		dynamo.ContributorInsightsModeAccessedAndThrottled, dynamo.ContributorInsightsModeThrottled)
	if err := c.err(); err != nil {
		return nil, err
	}

	db.ddl.Lock()
	defer db.ddl.Unlock()
	t, _, err := db.insightsTarget(in.TableName, in.IndexName)
	if err != nil {
		return nil, err
	}
	if s := db.tableStatus(t); s == dynamo.TableStatusCreating || s == dynamo.TableStatusDeleting {
		return nil, db.inUse(t)
	}
	now := db.now()
	m := t.meta // copy; the old *table stays valid for readers holding it
	m.Insights = make(map[string]insightsMeta, len(t.meta.Insights)+1)
	for k, v := range t.meta.Insights {
		m.Insights[k] = v
	}
	x := m.Insights[in.IndexName]
	out := &dynamo.UpdateContributorInsightsOutput{TableName: t.meta.Name, IndexName: in.IndexName}
	if in.ContributorInsightsAction == dynamo.ContributorInsightsActionEnable {
		mode := in.ContributorInsightsMode
		if mode == "" {
			mode = dynamo.ContributorInsightsModeAccessedAndThrottled
		}
		if !x.Enabled {
			x.Since = now
		}
		x.Enabled, x.Mode = true, mode
		out.ContributorInsightsStatus, out.ContributorInsightsMode = dynamo.ContributorInsightsEnabling, mode
	} else {
		x.Enabled, x.Mode, x.Since = false, "", time.Time{}
		out.ContributorInsightsStatus = dynamo.ContributorInsightsDisabling
	}
	x.Updated = now
	m.Insights[in.IndexName] = x

	b := db.store.NewBatch()
	defer b.Close()
	next, err := db.putTableLocked(b, newTable(m))
	if err != nil {
		return nil, err
	}
	if err := b.Commit(); err != nil {
		return nil, err
	}
	db.tables.Store(&next)
	return out, nil
}

// ListContributorInsights lists Contributor Insights' state: with a
// TableName, of the table and each of its global secondary indexes;
// without one, of every table and index whose state
// UpdateContributorInsights has set. Entries are in table name order,
// the table before its indexes, the indexes in name order.
func (db *DB) ListContributorInsights(in *dynamo.ListContributorInsightsInput) (*dynamo.ListContributorInsightsOutput, error) {
	return run(db, opListContributorInsights, func() (*dynamo.ListContributorInsightsOutput, error) {
		return db.listContributorInsights(in)
	})
}

// insightsPageDefault is the page ListContributorInsights answers without
// MaxResults: its largest.
const insightsPageDefault = 100

func (db *DB) listContributorInsights(in *dynamo.ListContributorInsightsInput) (*dynamo.ListContributorInsightsOutput, error) {
	var c constraints
	if in.TableName != "" {
		c.tableName("tableName", in.TableName)
	}
	limit := insightsPageDefault
	if in.MaxResults != nil {
		c.maxValue("maxResults", *in.MaxResults, 100)
		if *in.MaxResults > 0 {
			limit = int(*in.MaxResults)
		}
	}
	if err := c.err(); err != nil {
		return nil, err
	}
	var tables []*table
	if in.TableName != "" {
		t, err := db.freshTable(in.TableName)
		if err != nil {
			return nil, err
		}
		tables = []*table{t}
	} else {
		if err := db.reloadCatalog(); err != nil {
			return nil, err
		}
		for _, t := range *db.tables.Load() {
			if len(t.meta.Insights) > 0 && !db.gone(t) {
				tables = append(tables, t)
			}
		}
		sort.Slice(tables, func(i, j int) bool { return tables[i].meta.Name < tables[j].meta.Name })
	}
	now := db.now()
	var all []dynamo.ContributorInsightsSummary
	for _, t := range tables {
		names := []string{""}
		for _, ix := range t.indexes { // sorted by name
			if ix.meta.Global {
				names = append(names, ix.meta.Name)
			}
		}
		for _, n := range names {
			x, ok := t.meta.Insights[n]
			if !ok && in.TableName == "" {
				continue
			}
			s := dynamo.ContributorInsightsSummary{TableName: t.meta.Name, IndexName: n, ContributorInsightsStatus: dynamo.ContributorInsightsDisabled}
			if ok {
				s.ContributorInsightsStatus = db.insightsStatus(x, now)
				if x.Enabled {
					s.ContributorInsightsMode = x.Mode
				}
			}
			all = append(all, s)
		}
	}
	// NextToken is the table and index of the last entry given.
	start := 0
	if in.NextToken != "" {
		start = len(all)
		for i, s := range all {
			if insightsToken(s) == in.NextToken {
				start = i + 1
				break
			}
		}
	}
	out := &dynamo.ListContributorInsightsOutput{ContributorInsightsSummaries: []dynamo.ContributorInsightsSummary{}}
	end := min(start+limit, len(all))
	out.ContributorInsightsSummaries = append(out.ContributorInsightsSummaries, all[start:end]...)
	if end < len(all) {
		out.NextToken = insightsToken(all[end-1])
	}
	return out, nil
}

// insightsToken is the NextToken after s: its table and index, which
// hold no '/'.
func insightsToken(s dynamo.ContributorInsightsSummary) string {
	return strings.Join([]string{s.TableName, s.IndexName}, "/")
}
