package engine

import (
	"bytes"
	"github.com/dynago/dynago/dynamo"
	"log/slog"
	"strings"
	"sync"
	"testing"
)

// syncBuffer is a bytes.Buffer safe for the log's concurrent writers.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestBackfillLogNamesIndex checks that the log names an index by its
// IndexName, as the operator gave it, not by its internal id.
func TestBackfillLogNamesIndex(t *testing.T) {
	var logs syncBuffer
	db, err := Open(Options{InMemory: true, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	createGSITable(t, db, "logged")
	if _, err := db.PutItem(&dynamo.PutItemInput{TableName: "logged", Item: gItem(1, "g", 1)}); err != nil {
		t.Fatal(err)
	}
	addGSI(t, db, "logged", "byGroup")
	waitActive(t, db, "logged")
	if err := db.Close(); err != nil { // waits for the backfill's last log line
		t.Fatal(err)
	}
	var line string
	for _, l := range strings.Split(logs.String(), "\n") {
		if strings.Contains(l, "index active") {
			line = l
		}
	}
	if !strings.Contains(line, "index=byGroup") {
		t.Errorf("index active log line %q does not name the index byGroup:\n%s", line, logs.String())
	}
}
