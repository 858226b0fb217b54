package engine

import (
	"testing"
	"time"
)

// EnsureDefaults fills every zero field with its documented default and
// keeps what was set, negative durations (off, never) included; Validate
// refuses options that name no place for the data.
func TestOptionsDefaults(t *testing.T) {
	var o Options
	o.EnsureDefaults()
	if o.Logger == nil || o.Now == nil || o.Region != DefaultRegion || o.AccountID != DefaultAccountID ||
		o.NodeLeaseTimeout != DefaultNodeLeaseTimeout || o.StreamShardDuration != DefaultStreamShardDuration ||
		o.TTLSweepInterval != DefaultTTLSweepInterval || o.TTLChangeCooldown != DefaultTTLChangeCooldown {
		t.Errorf("zero options after EnsureDefaults: %+v", o)
	}
	set := Options{Region: "eu-west-2", AccountID: "123456789012", NodeLeaseTimeout: time.Minute,
		StreamShardDuration: time.Hour, TTLSweepInterval: -1, TTLChangeCooldown: -1}
	want := set
	set.EnsureDefaults()
	if set.Region != want.Region || set.AccountID != want.AccountID || set.NodeLeaseTimeout != want.NodeLeaseTimeout ||
		set.StreamShardDuration != want.StreamShardDuration || set.TTLSweepInterval != -1 || set.TTLChangeCooldown != -1 {
		t.Errorf("EnsureDefaults changed set fields: %+v", set)
	}
	if err := (&Options{}).Validate(); err == nil {
		t.Error("Validate accepted options with no Dir, InMemory or Store")
	}
	if err := (&Options{InMemory: true}).Validate(); err != nil {
		t.Errorf("Validate refused InMemory: %v", err)
	}
}
