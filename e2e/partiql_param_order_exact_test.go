package e2e

import (
	"strconv"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// TestPartiQLParamMemberOrderExact: inside one map parameter, the member
// with a problem that comes first in the request's JSON is the one
// reported, whatever the members' names (a Go map keeps no order, so the
// protocol decoder keeps only that member; server/internal/protocol, attrMap).
// paritysuite/dynamodb-conformance,
// tests/tier3/error-messages/partiqlParameterNumbers.test.ts (eu-west-2 and
// us-east-1, October 2026), "nested %i levels" (40 and 100): "a deep member
// of a map before an unconvertible one" and "an unconvertible member of a
// map before a deep one"; the member names here are chosen so that their
// key order is the reverse of their order in the request. The cases in a
// list, a nested map, ExecuteTransaction and BatchExecuteStatement follow
// the same file's rule ("DynamoDB reports whichever it reaches first in
// document order"), recorded there across parameters. Sent as JSON: the
// SDK writes a map's members in no fixed order.
func TestPartiQLParamMemberOrderExact(t *testing.T) {
	s, c := start(t)
	createRange(t, c, "qpo", types.ScalarAttributeTypeS)
	const (
		val    = nsValidation + "ValidationException"
		nest   = "Nesting Levels have exceeded supported limits: Attributes in the item have nested levels beyond supported limit"
		abc    = "The parameter cannot be converted to a numeric value: abc"
		huge   = "The parameter cannot be converted to a numeric value: 1e99999999999"
		single = `"Statement":"SELECT * FROM \"qpo\" WHERE pk = 'pq-pn' AND x = ?"`
		upd    = `"Statement":"UPDATE \"qpo\" SET x = ? WHERE pk = 'pq-pn' AND sk = '1'"`
	)
	for _, depth := range []int{40, 100} {
		d := nestedValue(depth)
		for _, tc := range []struct{ name, param, msg string }{
			{"a deep member of a map before an unconvertible one", `{"M":{"d":` + d + `,"bad":{"N":"abc"}}}`, nest},
			{"an unconvertible member of a map before a deep one", `{"M":{"z":{"N":"abc"},"a":` + d + `}}`, abc},
			{"a deep member before one past the exponent range", `{"M":{"d":` + d + `,"bad":{"N":"1e99999999999"}}}`, nest},
			{"one past the exponent range before a deep member", `{"M":{"z":{"N":"1e99999999999"},"a":` + d + `}}`, huge},
			{"in a map in a map", `{"M":{"m":{"M":{"y":` + d + `,"x":{"N":"abc"}}},"a":{"S":"fine"}}}`, nest},
			{"a failing map member before a failing scalar member", `{"M":{"m":{"M":{"y":` + d + `}},"b":{"N":"abc"}}}`, nest},
			{"a deep element of a list before an unconvertible one", `{"L":[` + d + `,{"N":"1e99999999999"}]}`, nest},
			{"an unconvertible element of a list before a deep one", `{"L":[{"N":"1e99999999999"},` + d + `]}`, huge},
		} {
			name := tc.name + " " + strconv.Itoa(depth)
			t.Run(name, func(t *testing.T) {
				checkRaw(t, s.Raw(t, "ExecuteStatement", `{`+single+`,"Parameters":[`+tc.param+`]}`), 400, val, tc.msg)
			})
			t.Run(name+", in ExecuteTransaction", func(t *testing.T) {
				checkRaw(t, s.Raw(t, "ExecuteTransaction", `{"TransactStatements":[{`+upd+`,"Parameters":[`+tc.param+`]}]}`), 400, val, tc.msg)
			})
			t.Run(name+", in BatchExecuteStatement", func(t *testing.T) {
				res := s.Raw(t, "BatchExecuteStatement", `{"Statements":[{`+single+`,"Parameters":[`+tc.param+`]}]}`)
				if res.Status != 200 {
					t.Fatalf("status %d: %s", res.Status, res.Body)
				}
				jsonEqual(t, res.Body, `{"Responses":[{"Error":{"Code":"ValidationError","Message":"`+tc.msg+`"}}]}`)
			})
		}
	}
}
