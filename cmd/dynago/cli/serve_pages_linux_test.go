package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"reflect"
	"testing"
)

// The executable's code is found among the mappings released, and the
// program runs on, unchanged, once they are.
func TestReleaseImagePages(t *testing.T) {
	code := reflect.ValueOf(releaseImagePages).Pointer()
	found := false
	for _, s := range imageSpans() {
		if s.lo <= code && code < s.hi {
			found = true
		}
	}
	if !found {
		t.Fatalf("no released mapping holds the code at %#x: %v", code, imageSpans())
	}
	sum := func() string {
		h := sha256.Sum256([]byte("dynago"))
		return hex.EncodeToString(h[:])
	}
	const want = "6a1a516e7b8320e5384914be9d4ec9cf62f68ee62453f59cc2d45bdbb612cae6"
	if got := sum(); got != want {
		t.Fatalf("sha256 before releasing pages = %s, want %s", got, want)
	}
	releaseImagePages()
	if got := sum(); got != want {
		t.Fatalf("sha256 after releasing pages = %s, want %s", got, want)
	}
}
