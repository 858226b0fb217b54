package itemsize

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/attr"
)

// TestNumber checks number sizes against those dynalite's tests recorded
// from DynamoDB (38 significant digits take 20 bytes, 1E+125 takes 2) and
// the rule's edges.
func TestNumber(t *testing.T) {
	for s, want := range map[string]int{
		"0": 1, "0.000": 1, "-0": 1,
		"1": 2, "10": 2, "100": 2, "12": 2, "123": 3, "1234": 3,
		"-1": 3, "0.1": 2, "0.01": 2, "1.5": 3, "1E+125": 2,
		"12345678901234567890123456789012345678": 20,
		"1e2":                                    2, "x": 2,
	} {
		if got := Number(s); got != want {
			t.Errorf("Number(%q) = %d, want %d", s, got, want)
		}
	}
	// The same sizes as the server's own sizing (package attr), which
	// its capacity units come from.
	for _, s := range []string{"0", "7", "-7", "10", "99", "100", "101", "1000", "0.5", "0.05", "0.005", "-0.05", "12.34", "123.45",
		"1E+1", "1E+2", "1E-1", "1E-2", "1.25E-7", "123456789012345678901234567890", "-9.9999999999999999999999999999999999999E+125",
		"1E-130", "00012.3400", "+5", "3.14159265358979"} {
		if got, want := Number(s), attr.ValueSize(attr.N(s)); got != want {
			t.Errorf("Number(%q) = %d; the server sizes it %d", s, got, want)
		}
	}
}

func TestItem(t *testing.T) {
	it := map[string]types.AttributeValue{
		"pk":  &types.AttributeValueMemberS{Value: "abc"},                                                                          // 2+3
		"b":   &types.AttributeValueMemberB{Value: []byte{1, 2}},                                                                   // 1+2
		"ok":  &types.AttributeValueMemberBOOL{Value: true},                                                                        // 2+1
		"nul": &types.AttributeValueMemberNULL{Value: true},                                                                        // 3+1
		"m":   &types.AttributeValueMemberM{Value: map[string]types.AttributeValue{"k": &types.AttributeValueMemberS{Value: "v"}}}, // 1+3+1+1+1
		"l":   &types.AttributeValueMemberL{Value: []types.AttributeValue{&types.AttributeValueMemberN{Value: "1"}}},               // 1+3+1+2
		"ss":  &types.AttributeValueMemberSS{Value: []string{"a", "bc"}},                                                           // 2+3
		"ns":  &types.AttributeValueMemberNS{Value: []string{"1", "123"}},                                                          // 2+5
		"bs":  &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2, 3}}},                                                         // 2+3
	}
	if got, want := Item(it), 5+3+3+4+7+7+5+7+5; got != want {
		t.Errorf("Item = %d, want %d", got, want)
	}
	for size, want := range map[int]float64{0: 1, 1: 1, 1024: 1, 1025: 2, 4096: 4} {
		if got := WriteUnits(size); got != want {
			t.Errorf("WriteUnits(%d) = %v, want %v", size, got, want)
		}
	}
}
