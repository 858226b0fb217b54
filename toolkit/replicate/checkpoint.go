package replicate

import (
	"fmt"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/toolkit/internal/jsonfile"
	"github.com/dynago/dynago/toolkit/internal/keyjson"
)

// The phases of a replication, in order, as the checkpoint names them.
const (
	// PhaseMark reads the source's stream to its tip without applying
	// anything, to remember where each shard stood before the scan.
	PhaseMark = "mark"
	// PhaseScan copies every item with a parallel, consistent Scan.
	PhaseScan = "scan"
	// PhaseCatchUp applies the stream records written since the mark.
	PhaseCatchUp = "catch-up"
	// PhaseFollow keeps applying new records until cancelled.
	PhaseFollow = "follow"
)

// checkpointID names a replication: a checkpoint resumes only the same one.
type checkpointID struct {
	Source    string `json:"source"`
	Target    string `json:"target"`
	Transform string `json:"transform,omitempty"`
	Segments  int    `json:"segments"`
}

// segmentState is where a scan segment stands: done, or the last key of
// the last page copied (nil: not started).
type segmentState struct {
	Done bool        `json:"done,omitempty"`
	Last keyjson.Key `json:"last,omitempty"`
}

// shardState is where the replication stands in one shard: After is the
// sequence number of the last record processed ("": none yet, start at
// the shard's oldest record); Done means the shard is closed and was read
// to its end.
type shardState struct {
	Parent string `json:"parent,omitempty"`
	After  string `json:"after,omitempty"`
	Done   bool   `json:"done,omitempty"`
}

type checkpointFile struct {
	checkpointID
	StreamArn string                 `json:"stream_arn"`
	Phase     string                 `json:"phase"`
	Scan      []segmentState         `json:"scan"`
	Shards    map[string]*shardState `json:"shards,omitempty"`
	// Counters carried over from earlier runs, for reporting.
	Copied  int64 `json:"copied"`
	Applied int64 `json:"applied"`
}

// checkpoint is the progress of one replication, kept in a file when a
// path is given. Every change is written at once, atomically.
type checkpoint struct {
	path   string
	mu     sync.Mutex
	file   checkpointFile
	loaded bool
}

func openCheckpoint(path string, id checkpointID) (*checkpoint, error) {
	cp := &checkpoint{path: path, file: checkpointFile{checkpointID: id, Phase: PhaseMark, Scan: make([]segmentState, id.Segments)}}
	if path == "" {
		return cp, nil
	}
	var f checkpointFile
	found, err := jsonfile.Load(path, &f)
	if err != nil {
		return nil, fmt.Errorf("replicate: checkpoint %s: %w", path, err)
	}
	if !found {
		return cp, nil
	}
	if f.checkpointID != id || len(f.Scan) != id.Segments {
		return nil, fmt.Errorf("replicate: checkpoint %s belongs to another replication (%+v); remove it to start over", path, f.checkpointID)
	}
	switch f.Phase {
	case PhaseMark, PhaseScan, PhaseCatchUp:
	default:
		return nil, fmt.Errorf("replicate: checkpoint %s: unknown phase %q", path, f.Phase)
	}
	cp.file, cp.loaded = f, true
	return cp, nil
}

func (cp *checkpoint) phase() string {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	return cp.file.Phase
}

// update changes the state under the lock and writes the file.
func (cp *checkpoint) update(f func(*checkpointFile)) error {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	f(&cp.file)
	return cp.writeLocked()
}

// locked looks at or changes the state under the lock, without writing
// the file.
func (cp *checkpoint) locked(f func(*checkpointFile)) {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	f(&cp.file)
}

// segment returns a segment's state.
func (cp *checkpoint) segment(seg int) (done bool, last map[string]types.AttributeValue) {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	s := cp.file.Scan[seg]
	return s.Done, s.Last.To()
}

// saveSegment records that a segment copied the page ending at last (nil:
// the segment is done).
func (cp *checkpoint) saveSegment(seg int, last map[string]types.AttributeValue, copied int64) error {
	lastJSON, err := keyjson.From(last)
	if err != nil {
		return fmt.Errorf("replicate: %w", err)
	}
	return cp.update(func(f *checkpointFile) {
		f.Scan[seg] = segmentState{Done: last == nil, Last: lastJSON}
		f.Copied += copied
	})
}

func (cp *checkpoint) writeLocked() error {
	if cp.path == "" {
		return nil
	}
	return jsonfile.Save(cp.path, cp.file)
}
