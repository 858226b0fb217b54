package attr

import (
	"testing"
	"unsafe"
)

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

// Items are maps of Values; Go keeps map values of up to 128 bytes inline,
// so growing Value past that adds an allocation per attribute on decode.
func TestValueFitsInline(t *testing.T) {
	if n := unsafe.Sizeof(Value{}); n > 128 {
		t.Fatalf("attr.Value is %d bytes; keep it at 128 or less", n)
	}
}
