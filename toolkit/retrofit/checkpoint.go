package retrofit

import (
	"fmt"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/dynago/dynago/toolkit/internal/jsonfile"
	"github.com/dynago/dynago/toolkit/internal/keyjson"
)

// checkpointID names a retrofit: a checkpoint resumes only the same one.
type checkpointID struct {
	Table     string `json:"table"`
	Attribute string `json:"attribute"`
	Template  string `json:"template"`
	Segments  int    `json:"segments"`
	DryRun    bool   `json:"dry_run,omitempty"`
}

// segmentState is where a segment stands: done, or the last key of the
// last page fully processed (nil: not started).
type segmentState struct {
	Done bool        `json:"done,omitempty"`
	Last keyjson.Key `json:"last,omitempty"`
}

type checkpointFile struct {
	checkpointID
	State []segmentState `json:"state"`
}

// checkpoint is the progress file of one run; a nil path keeps it in
// memory only.
type checkpoint struct {
	path   string
	mu     sync.Mutex
	file   checkpointFile
	loaded bool
}

func openCheckpoint(path string, id checkpointID) (*checkpoint, error) {
	cp := &checkpoint{path: path, file: checkpointFile{checkpointID: id, State: make([]segmentState, id.Segments)}}
	if path == "" {
		return cp, nil
	}
	var f checkpointFile
	found, err := jsonfile.Load(path, &f)
	if err != nil {
		return nil, fmt.Errorf("retrofit: checkpoint %s: %w", path, err)
	}
	if !found {
		return cp, nil
	}
	if f.checkpointID != id || len(f.State) != id.Segments {
		return nil, fmt.Errorf("retrofit: checkpoint %s belongs to another retrofit (%+v); remove it to start over", path, f.checkpointID)
	}
	cp.file, cp.loaded = f, true
	return cp, nil
}

func (cp *checkpoint) resumed() bool { return cp.loaded }

func (cp *checkpoint) done(seg int) bool {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	return cp.file.State[seg].Done
}

// last returns the start key a segment resumes from.
func (cp *checkpoint) last(seg int) map[string]types.AttributeValue {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	return cp.file.State[seg].Last.To()
}

// save records that a segment finished the page ending at last (nil: the
// segment is done) and writes the file atomically.
func (cp *checkpoint) save(seg int, last map[string]types.AttributeValue) error {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	lastJSON, err := keyjson.From(last)
	if err != nil {
		return fmt.Errorf("retrofit: %w", err)
	}
	st := segmentState{Done: last == nil, Last: lastJSON}
	cp.file.State[seg] = st
	if cp.path == "" {
		return nil
	}
	return jsonfile.Save(cp.path, cp.file)
}
