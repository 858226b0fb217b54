package attr

import "testing"

func TestTypeNames(t *testing.T) {
	for ty := TypeS; ty <= TypeBS; ty++ {
		t.Run(ty.String(), func(t *testing.T) {
			if got := ParseType(ty.String()); got != ty {
				t.Fatalf("ParseType(%q) = %v", ty.String(), got)
			}
		})
	}
	if TypeInvalid.String() != "INVALID" || ParseType("X") != TypeInvalid || ParseType("INVALID") != TypeInvalid {
		t.Fatal("invalid type names")
	}
}
