package engine

// Time to Live: UpdateTimeToLive, DescribeTimeToLive and the sweeper.

// UpdateTimeToLive turns Time to Live on or off for a table.
func (db *DB) UpdateTimeToLive(in *UpdateTimeToLiveInput) (*UpdateTimeToLiveOutput, error) {
	return nil, Validation("UpdateTimeToLive: not implemented yet")
}

// DescribeTimeToLive reports a table's Time to Live setting.
func (db *DB) DescribeTimeToLive(in *DescribeTimeToLiveInput) (*DescribeTimeToLiveOutput, error) {
	return nil, Validation("DescribeTimeToLive: not implemented yet")
}

func (db *DB) startTTLSweeper() {}

// SweepExpired runs one Time to Live sweep now, over every table with TTL
// enabled, and returns how many items it deleted. The background sweeper
// calls it on its interval; tests call it to expire items on demand.
func (db *DB) SweepExpired() (int, error) { return 0, nil }
