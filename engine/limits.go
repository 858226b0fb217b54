package engine

// DescribeLimits returns DynamoDB's default account and table quotas. dynago
// enforces none of them; clients that size their requests by them see the
// numbers they would see on AWS.
//
// https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/API_DescribeLimits.html
func (db *DB) DescribeLimits() (*DescribeLimitsOutput, error) {
	if db.closed.Load() {
		return nil, ErrClosed
	}
	return &DescribeLimitsOutput{
		AccountMaxReadCapacityUnits:  80000,
		AccountMaxWriteCapacityUnits: 80000,
		TableMaxReadCapacityUnits:    40000,
		TableMaxWriteCapacityUnits:   40000,
	}, nil
}

// DescribeEndpoints answers endpoint discovery with the address clients
// already use: address is the host (and port) the request came to. A cache
// period of 1440 minutes is what DynamoDB returns.
func (db *DB) DescribeEndpoints(address string) (*DescribeEndpointsOutput, error) {
	if db.closed.Load() {
		return nil, ErrClosed
	}
	return &DescribeEndpointsOutput{Endpoints: []Endpoint{{Address: address, CachePeriodInMinutes: 1440}}}, nil
}
