package retrofit

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
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
	Done bool              `json:"done,omitempty"`
	Last map[string]keyVal `json:"last,omitempty"`
}

// keyVal is a key attribute value in the checkpoint file: exactly one of
// S, N, B (base64 through encoding/json) is set.
type keyVal struct {
	S *string `json:"S,omitempty"`
	N *string `json:"N,omitempty"`
	B []byte  `json:"B,omitempty"`
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
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return cp, nil
	}
	if err != nil {
		return nil, err
	}
	var f checkpointFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("retrofit: checkpoint %s: %w", path, err)
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
	l := cp.file.State[seg].Last
	if l == nil {
		return nil
	}
	out := make(map[string]types.AttributeValue, len(l))
	for k, v := range l {
		switch {
		case v.S != nil:
			out[k] = &types.AttributeValueMemberS{Value: *v.S}
		case v.N != nil:
			out[k] = &types.AttributeValueMemberN{Value: *v.N}
		default:
			out[k] = &types.AttributeValueMemberB{Value: v.B}
		}
	}
	return out
}

// save records that a segment finished the page ending at last (nil: the
// segment is done) and writes the file atomically.
func (cp *checkpoint) save(seg int, last map[string]types.AttributeValue) error {
	cp.mu.Lock()
	defer cp.mu.Unlock()
	st := segmentState{Done: last == nil}
	if last != nil {
		st.Last = make(map[string]keyVal, len(last))
		for k, v := range last {
			switch x := v.(type) {
			case *types.AttributeValueMemberS:
				st.Last[k] = keyVal{S: &x.Value}
			case *types.AttributeValueMemberN:
				st.Last[k] = keyVal{N: &x.Value}
			case *types.AttributeValueMemberB:
				st.Last[k] = keyVal{B: append([]byte{}, x.Value...)}
			default:
				return fmt.Errorf("retrofit: key attribute %s of type %T", k, v)
			}
		}
	}
	cp.file.State[seg] = st
	if cp.path == "" {
		return nil
	}
	data, err := json.MarshalIndent(cp.file, "", "  ")
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(cp.path), ".retrofit-checkpoint-*")
	if err != nil {
		return err
	}
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		os.Remove(tmp.Name())
		return err
	}
	if err := tmp.Close(); err != nil {
		os.Remove(tmp.Name())
		return err
	}
	return os.Rename(tmp.Name(), cp.path)
}
