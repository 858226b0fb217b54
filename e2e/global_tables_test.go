package e2e

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/local"
)

// TestGlobalTablesWithoutReplicas: dynago has no replicas, so every table
// answers the global table operations as a DynamoDB table without
// replicas does, and a missing name as DynamoDB answers one (the same
// texts): the ack-api-quirks lab's DDB-GLOBALTABLE-004 (DescribeGlobalTable,
// DescribeGlobalTableSettings and ListGlobalTables for a regional table
// and a missing name), DDB-TABLE-254 (DescribeTableReplicaAutoScaling on
// a missing table) and DDB-TABLE-446 (on a regional table), recorded
// against DynamoDB in us-east-1 and us-west-2 on 2026-10-09.
func TestGlobalTablesWithoutReplicas(t *testing.T) {
	_, c := start(t)
	createHash(t, c, "Regional", types.ScalarAttributeTypeS)
	for _, tc := range []struct {
		name      string
		run       func(local.API) error
		code, msg string
	}{
		{"DescribeGlobalTable regional", func(c local.API) error {
			_, err := c.DescribeGlobalTable(bg(), &dynamodb.DescribeGlobalTableInput{GlobalTableName: aws.String("Regional")})
			return err
		}, "GlobalTableNotFoundException", "Global table not found: Global table with name: 'Regional' does not exist."},
		{"DescribeGlobalTable missing", func(c local.API) error {
			_, err := c.DescribeGlobalTable(bg(), &dynamodb.DescribeGlobalTableInput{GlobalTableName: aws.String("Nope")})
			return err
		}, "GlobalTableNotFoundException", "Global table not found: Global table with name: 'Nope' does not exist."},
		{"DescribeGlobalTableSettings regional", func(c local.API) error {
			_, err := c.DescribeGlobalTableSettings(bg(), &dynamodb.DescribeGlobalTableSettingsInput{GlobalTableName: aws.String("Regional")})
			return err
		}, "GlobalTableNotFoundException", "Global table with name: 'Regional' does not exist."},
		{"DescribeGlobalTableSettings missing", func(c local.API) error {
			_, err := c.DescribeGlobalTableSettings(bg(), &dynamodb.DescribeGlobalTableSettingsInput{GlobalTableName: aws.String("Nope")})
			return err
		}, "GlobalTableNotFoundException", "Global table with name: 'Nope' does not exist."},
		{"DescribeTableReplicaAutoScaling regional", func(c local.API) error {
			_, err := c.DescribeTableReplicaAutoScaling(bg(), &dynamodb.DescribeTableReplicaAutoScalingInput{TableName: aws.String("Regional")})
			return err
		}, "ResourceNotFoundException", "Global table with name: 'Regional' does not exist."},
		{"DescribeTableReplicaAutoScaling missing", func(c local.API) error {
			_, err := c.DescribeTableReplicaAutoScaling(bg(), &dynamodb.DescribeTableReplicaAutoScalingInput{TableName: aws.String("Nope")})
			return err
		}, "ResourceNotFoundException", "Global table with name: 'Nope' does not exist."},
		// UpdateTableReplicaAutoScaling answers a table without replicas
		// and a missing one as DescribeTableReplicaAutoScaling does
		// (DDB-TABLE-254: "Update missing"; DDB-TABLE-446's catalogue:
		// "regional table or missing table").
		{"UpdateTableReplicaAutoScaling regional", func(c local.API) error {
			return updateReplicaAutoScaling(c, "Regional", &types.AutoScalingSettingsUpdate{AutoScalingDisabled: aws.Bool(true)})
		}, "ResourceNotFoundException", "Global table with name: 'Regional' does not exist."},
		{"UpdateTableReplicaAutoScaling missing", func(c local.API) error {
			return updateReplicaAutoScaling(c, "Nope", &types.AutoScalingSettingsUpdate{AutoScalingDisabled: aws.Bool(true)})
		}, "ResourceNotFoundException", "Global table with name: 'Nope' does not exist."},
		// Settings that do not disable auto scaling need MinimumUnits,
		// MaximumUnits and a ScalingPolicyUpdate, checked before the
		// table is looked for (DDB-TABLE-253, each subset as recorded on a
		// global table's fresh read dimension; DDB-TABLE-455: the same
		// refusal for a table being deleted and one gone).
		{"UpdateTableReplicaAutoScaling min max only", func(c local.API) error {
			return updateReplicaAutoScaling(c, "Regional", &types.AutoScalingSettingsUpdate{MinimumUnits: aws.Int64(1), MaximumUnits: aws.Int64(5)})
		}, "ValidationException", "Failed to update settings for global table with name: ‘Regional’: Parameters 'ScalingPolicyUpdate' are required unless auto scaling is being disabled."},
		{"UpdateTableReplicaAutoScaling min max only missing", func(c local.API) error {
			return updateReplicaAutoScaling(c, "Nope", &types.AutoScalingSettingsUpdate{MinimumUnits: aws.Int64(1), MaximumUnits: aws.Int64(5)})
		}, "ValidationException", "Failed to update settings for global table with name: ‘Nope’: Parameters 'ScalingPolicyUpdate' are required unless auto scaling is being disabled."},
		{"UpdateTableReplicaAutoScaling policy only", func(c local.API) error {
			return updateReplicaAutoScaling(c, "Regional", &types.AutoScalingSettingsUpdate{ScalingPolicyUpdate: targetTracking(70)})
		}, "ValidationException", "Failed to update settings for global table with name: ‘Regional’: Parameters 'MaximumUnits', 'MinimumUnits' are required unless auto scaling is being disabled."},
		{"UpdateTableReplicaAutoScaling min only", func(c local.API) error {
			return updateReplicaAutoScaling(c, "Regional", &types.AutoScalingSettingsUpdate{MinimumUnits: aws.Int64(1), ScalingPolicyUpdate: targetTracking(70)})
		}, "ValidationException", "Failed to update settings for global table with name: ‘Regional’: Parameters 'MaximumUnits' are required unless auto scaling is being disabled."},
		{"UpdateTableReplicaAutoScaling empty settings", func(c local.API) error {
			return updateReplicaAutoScaling(c, "Regional", &types.AutoScalingSettingsUpdate{})
		}, "ValidationException", "Failed to update settings for global table with name: ‘Regional’: Parameters 'MaximumUnits', 'ScalingPolicyUpdate', 'MinimumUnits' are required unless auto scaling is being disabled."},
		{"UpdateTableReplicaAutoScaling disabled false", func(c local.API) error {
			return updateReplicaAutoScaling(c, "Regional", &types.AutoScalingSettingsUpdate{AutoScalingDisabled: aws.Bool(false)})
		}, "ValidationException", "Failed to update settings for global table with name: ‘Regional’: Parameters 'MaximumUnits', 'ScalingPolicyUpdate', 'MinimumUnits' are required unless auto scaling is being disabled."},
		// The member constraint of the TableName shape (3 to 255
		// characters, AWS's service model), in DynamoDB's words for it.
		{"DescribeGlobalTable short name", func(c local.API) error {
			_, err := c.DescribeGlobalTable(bg(), &dynamodb.DescribeGlobalTableInput{GlobalTableName: aws.String("ab")})
			return err
		}, "ValidationException", "1 validation error detected: Value 'ab' at 'globalTableName' failed to satisfy constraint: Member must have length greater than or equal to 3"},
		// ListGlobalTables: 200 with GlobalTables=[] and no
		// LastEvaluatedGlobalTableName, for the default request,
		// RegionName=us-east-1 and Limit=1 (DDB-GLOBALTABLE-004).
		{"ListGlobalTables", func(c local.API) error { return listGlobalEmpty(c, &dynamodb.ListGlobalTablesInput{}) }, "", ""},
		{"ListGlobalTables region", func(c local.API) error {
			return listGlobalEmpty(c, &dynamodb.ListGlobalTablesInput{RegionName: aws.String("us-east-1")})
		}, "", ""},
		{"ListGlobalTables limit", func(c local.API) error {
			return listGlobalEmpty(c, &dynamodb.ListGlobalTablesInput{Limit: aws.Int32(1)})
		}, "", ""},
		// Limit's minimum of 1 (PositiveIntegerObject in the service model).
		{"ListGlobalTables limit 0", func(c local.API) error {
			return listGlobalEmpty(c, &dynamodb.ListGlobalTablesInput{Limit: aws.Int32(0)})
		},
			"ValidationException", "1 validation error detected: Value '0' at 'limit' failed to satisfy constraint: Member must have value greater than or equal to 1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run(c)
			if tc.code == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			wantErr(t, err, tc.code, tc.msg)
		})
	}
}

// updateReplicaAutoScaling calls UpdateTableReplicaAutoScaling with one
// replica's read capacity settings, as DDB-TABLE-253's probes did.
func updateReplicaAutoScaling(c local.API, table string, s *types.AutoScalingSettingsUpdate) error {
	_, err := c.UpdateTableReplicaAutoScaling(bg(), &dynamodb.UpdateTableReplicaAutoScalingInput{TableName: aws.String(table),
		ReplicaUpdates: []types.ReplicaAutoScalingUpdate{{RegionName: aws.String("us-west-2"), ReplicaProvisionedReadCapacityAutoScalingUpdate: s}}})
	return err
}

func targetTracking(v float64) *types.AutoScalingPolicyUpdate {
	return &types.AutoScalingPolicyUpdate{TargetTrackingScalingPolicyConfiguration: &types.AutoScalingTargetTrackingScalingPolicyConfigurationUpdate{TargetValue: aws.Float64(v)}}
}

// listGlobalEmpty calls ListGlobalTables and checks that it lists none.
func listGlobalEmpty(c local.API, in *dynamodb.ListGlobalTablesInput) error {
	out, err := c.ListGlobalTables(bg(), in)
	if err != nil {
		return err
	}
	if len(out.GlobalTables) != 0 || out.LastEvaluatedGlobalTableName != nil {
		return &unexpected{what: "ListGlobalTables listed global tables or a LastEvaluatedGlobalTableName"}
	}
	return nil
}

type unexpected struct{ what string }

func (u *unexpected) Error() string { return u.what }

// TestListGlobalTablesWire: the answer's bytes, GlobalTables=[] without
// LastEvaluatedGlobalTableName (DDB-GLOBALTABLE-004).
func TestListGlobalTablesWire(t *testing.T) {
	needsWire(t)
	s, _ := start(t)
	res := s.Raw(t, "ListGlobalTables", `{"Limit":1}`)
	if res.Status != 200 {
		t.Fatalf("ListGlobalTables: %d %s", res.Status, res.Body)
	}
	jsonEqual(t, res.Body, `{"GlobalTables":[]}`)
}
