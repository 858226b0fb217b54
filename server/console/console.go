// Package console serves dynago's web console: a page, embedded in the
// binary, that a browser opens at /console/ on the server itself.
//
// The page is one more client of the DynamoDB API. Every table, item,
// query, PartiQL, stream, Time to Live, backup and point-in-time
// recovery action is a POST / with X-Amz-Target, sent from the page to
// the same origin, so it runs the code paths an SDK runs and fails with
// DynamoDB's own __type and message.
// The handler adds only what that API cannot answer, under /console/api/:
//
//   - /console/api/info      which optional endpoints are configured
//   - /console/api/plan      the toolkit's query planner for a data model
//     and a request (pure: it reads nothing)
//   - /console/api/workbench a data model in dynago's format or NoSQL
//     Workbench's read as dynago's (one a table) and written as
//     Workbench's, or the examples' models (pure too)
//   - /console/api/explain   the plan of a PartiQL statement, through
//     Options.Explain
//   - /console/api/capacity  consumed capacity per table and index over
//     time, through Options.Capacity
//   - /console/api/insights  the most accessed keys of a table or global
//     secondary index with Contributor Insights on, through
//     Options.TopKeys (DynamoDB reports them through CloudWatch, which
//     dynago does not serve)
//
// All six are POSTs of JSON, signed by the page like its API calls when
// it has credentials, so a server that checks signatures can check them
// too (it lets GETs, the page's files, through unsigned).
//
// The package imports neither engine nor storage: what it needs of them
// comes in through Options, as functions.
//
// # Caveats
//
// The page signs its requests (SigV4, WebCrypto) only once given
// credentials on its Credentials screen; WebCrypto needs a secure context,
// https or a loopback address.
package console

import (
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/dynago/dynago/examples"
	"github.com/dynago/dynago/toolkit/planner"
	"github.com/dynago/dynago/toolkit/workbench"
)

//go:embed assets
var assets embed.FS

// Prefix is the path the console is served under.
const Prefix = "/console/"

// maxAPIBody caps the body of a /console/api/ request.
const maxAPIBody = 1 << 20

// Options configures the console. The zero value serves the page and the
// planner; explain and capacity answer 501 until their function is set.
type Options struct {
	// Explain, if set, returns the plan of a PartiQL statement without
	// running it (parameters, if any, unbound). The page shows its
	// String() when it has one, and its JSON. An *Error, or an error with
	// ErrorCode() and ErrorMessage() methods, is answered with that type
	// and message; any other as a ValidationException with its text.
	// Default: nil (501).
	//
	// The functions get the console's request: its context, and, when the
	// page has credentials, its SigV4 Authorization, whose credential
	// scope names the database of a server with a namespace per access
	// key and region.
	Explain func(r *http.Request, statement string, consistentRead bool) (any, error)
	// Capacity, if set, returns the capacity consumed per table and index
	// since the server started, as samples in time order (Recorder.Samples
	// makes them). Default: nil (501); the page then charts the capacity
	// of its own requests only.
	Capacity func(r *http.Request) ([]CapacitySample, error)
	// TopKeys, if set, returns the most accessed keys of table, or of its
	// global secondary index index when that is not "", by Contributor
	// Insights' rules, as JSON. Its errors are answered as Explain's.
	// Default: nil (501).
	TopKeys func(r *http.Request, table, index string) (any, error)
	// Signatures tells the page that the server checks every request's
	// signature (dynago serve --auth), and PerAccount that it keeps a
	// database per access key and region (--namespace account-region,
	// DynamoDB Local without -sharedDb). The page words its hints and
	// its Credentials screen by them. Default: false, false: any
	// signature or none, one database for everyone.
	Signatures bool
	PerAccount bool
	// HostAllowed, if set, refuses (403) every console request, page,
	// assets and /console/api/ alike, whose Host header it rejects: give
	// it the server's own DNS-rebinding check.
	// Default: nil, every host is allowed.
	HostAllowed func(host string) bool
}

// Error is a failure answered with a DynamoDB error type and message, as
// {"__type": Type, "message": Message}.
type Error struct {
	Type, Message string
}

func (e *Error) Error() string { return e.Type + ": " + e.Message }

// CapacitySample is the capacity consumed by one table or index during
// one interval.
type CapacitySample struct {
	Time  time.Time `json:"time"` // the end of the interval
	Table string    `json:"table"`
	// Index is "" for the table itself.
	Index      string  `json:"index,omitempty"`
	ReadUnits  float64 `json:"readUnits"`
	WriteUnits float64 `json:"writeUnits"`
}

// Handler serves the console. Mount it at Prefix, with the path intact
// (not stripped), or use With.
type Handler struct {
	opts   Options
	static http.Handler
	cross  *http.CrossOriginProtection
}

// New returns the console's handler.
func New(opts Options) *Handler {
	sub, err := fs.Sub(assets, "assets")
	if err != nil {
		panic(err) // the embedded tree always has it
	}
	return &Handler{opts: opts, static: http.FileServerFS(sub), cross: http.NewCrossOriginProtection()}
}

// With returns a handler that serves the console at /console and below,
// and passes every other request to api unchanged (so the API's own
// answers, 404s included, are exactly its own).
func With(api http.Handler, opts Options) http.Handler {
	c := New(opts)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/console" || strings.HasPrefix(r.URL.Path, Prefix) {
			c.ServeHTTP(w, r)
			return
		}
		api.ServeHTTP(w, r)
	})
}

// ServeHTTP serves the page, its assets and the /console/api/ endpoints.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	hd := w.Header()
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Cache-Control", "no-cache")
	hd.Set("Referrer-Policy", "no-referrer")
	p := r.URL.Path
	if h.opts.HostAllowed != nil && !h.opts.HostAllowed(r.Host) {
		fail(w, http.StatusForbidden, "AccessDeniedException", "Host "+r.Host+" is not allowed")
		return
	}
	if p == "/console" {
		http.Redirect(w, r, Prefix, http.StatusMovedPermanently)
		return
	}
	rest := strings.TrimPrefix(p, Prefix)
	if strings.HasPrefix(rest, "api/") {
		h.api(w, r, strings.TrimPrefix(rest, "api/"))
		return
	}
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		hd.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	if rest == "" {
		rest = "index.html"
	}
	if strings.Contains(rest, "..") || path.Clean("/"+rest) != "/"+rest {
		http.NotFound(w, r)
		return
	}
	// The page loads nothing but its own files and talks to its own
	// origin only.
	hd.Set("Content-Security-Policy", "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	hd.Set("X-Frame-Options", "DENY")
	if ct := mime.TypeByExtension(path.Ext(rest)); ct != "" {
		hd.Set("Content-Type", contentTypes(path.Ext(rest), ct))
	}
	r2 := r.Clone(r.Context())
	r2.URL.Path = "/" + rest
	if rest == "index.html" {
		// FileServer redirects /index.html to /; serve the file itself.
		serveFile(w, r2, "assets/index.html")
		return
	}
	h.static.ServeHTTP(w, r2)
}

// contentTypes pins the types of the page's own files, whatever the
// system's MIME tables say.
func contentTypes(ext, fallback string) string {
	switch ext {
	case ".html":
		return "text/html; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".svg":
		return "image/svg+xml"
	case ".png":
		return "image/png"
	}
	return fallback
}

func serveFile(w http.ResponseWriter, r *http.Request, name string) {
	b, err := assets.ReadFile(name)
	if err != nil {
		http.NotFound(w, r)
		return
	}
	if r.Method == http.MethodHead {
		return
	}
	w.Write(b)
}

// apiError is the body of a failed /console/api/ request.
type apiError struct {
	Type    string `json:"__type"`
	Message string `json:"message"`
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func fail(w http.ResponseWriter, status int, typ, msg string) {
	writeJSON(w, status, apiError{Type: typ, Message: msg})
}

func (h *Handler) api(w http.ResponseWriter, r *http.Request, name string) {
	if err := h.cross.Check(r); err != nil {
		fail(w, http.StatusForbidden, "AccessDeniedException", "cross-origin request refused")
		return
	}
	switch name {
	case "info", "capacity", "plan", "explain", "insights", "workbench":
	default:
		fail(w, http.StatusNotFound, "UnknownOperationException", "no console endpoint "+name)
		return
	}
	// Every endpoint is a POST, so that a server checking signatures
	// checks these as it checks the API's calls (it lets GETs through).
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		fail(w, http.StatusMethodNotAllowed, "ValidationException", name+" takes POST")
		return
	}
	switch name {
	case "info":
		namespaces := "shared"
		if h.opts.PerAccount {
			namespaces = "account-region"
		}
		writeJSON(w, http.StatusOK, map[string]any{
			"plan": true, "explain": h.opts.Explain != nil, "capacity": h.opts.Capacity != nil,
			"insights": h.opts.TopKeys != nil, "signatures": h.opts.Signatures, "namespaces": namespaces,
		})
	case "insights":
		h.insights(w, r)
	case "capacity":
		h.capacity(w, r)
	case "plan":
		h.plan(w, r)
	case "workbench":
		h.workbench(w, r)
	case "explain":
		h.explain(w, r)
	}
}

// readBody decodes a JSON request body into v, answering the failure
// itself when it returns false.
func readBody(w http.ResponseWriter, r *http.Request, v any) bool {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxAPIBody))
	if err != nil {
		fail(w, http.StatusRequestEntityTooLarge, "ValidationException", "request body too large")
		return false
	}
	if err := json.Unmarshal(body, v); err != nil {
		fail(w, http.StatusBadRequest, "SerializationException", err.Error())
		return false
	}
	return true
}

// planRequest is the body of POST /console/api/plan: a data model as
// "dynago plan --model" reads it, and a request on its dimensions.
type planRequest struct {
	Model    json.RawMessage     `json:"model"`
	Where    map[string][]string `json:"where"`
	PageSize int                 `json:"pageSize"`
}

// planAnswer is the plan, and the line "dynago plan" prints for it.
type planAnswer struct {
	Plan    *planner.Plan `json:"plan"`
	Explain string        `json:"explain"`
}

func (h *Handler) plan(w http.ResponseWriter, r *http.Request) {
	var req planRequest
	if !readBody(w, r, &req) {
		return
	}
	if len(req.Model) == 0 {
		fail(w, http.StatusBadRequest, "ValidationException", "model is required")
		return
	}
	m, err := planner.ParseModel(req.Model)
	if err != nil {
		fail(w, http.StatusBadRequest, "ValidationException", err.Error())
		return
	}
	p, err := (&planner.Planner{Model: m}).Plan(r.Context(), planner.Request{Where: req.Where, PageSize: req.PageSize})
	if err != nil {
		fail(w, http.StatusBadRequest, "ValidationException", err.Error())
		return
	}
	writeJSON(w, http.StatusOK, planAnswer{Plan: p, Explain: p.String()})
}

// workbenchRequest is the body of POST /console/api/workbench: a model
// to open, in either format, or {"examples": true} for the examples'
// models.
type workbenchRequest struct {
	Model    json.RawMessage `json:"model"`
	Examples bool            `json:"examples"`
}

// workbenchExample is one example's model, by the example's name.
type workbenchExample struct {
	Name  string          `json:"name"`
	Model json.RawMessage `json:"model"`
}

func (h *Handler) workbench(w http.ResponseWriter, r *http.Request) {
	var req workbenchRequest
	if !readBody(w, r, &req) {
		return
	}
	if req.Examples {
		list := []workbenchExample{}
		for name, b := range examples.Models() {
			list = append(list, workbenchExample{Name: name, Model: b})
		}
		slices.SortFunc(list, func(a, b workbenchExample) int { return strings.Compare(a.Name, b.Name) })
		writeJSON(w, http.StatusOK, map[string]any{"examples": list})
		return
	}
	if len(req.Model) == 0 {
		fail(w, http.StatusBadRequest, "ValidationException", "model is required")
		return
	}
	format := "dynago"
	if workbench.IsWorkbench(req.Model) {
		format = "workbench"
	}
	models, err := workbench.Open(req.Model)
	if err == nil {
		var doc *workbench.Document
		if doc, err = workbench.ToWorkbench(models...); err == nil {
			writeJSON(w, http.StatusOK, map[string]any{"format": format, "models": models, "workbench": doc})
			return
		}
	}
	fail(w, http.StatusBadRequest, "ValidationException", err.Error())
}

func (h *Handler) explain(w http.ResponseWriter, r *http.Request) {
	if h.opts.Explain == nil {
		fail(w, http.StatusNotImplemented, "UnsupportedOperationException", "this server does not explain PartiQL statements")
		return
	}
	var req struct {
		Statement      string `json:"statement"`
		ConsistentRead bool   `json:"consistentRead"`
	}
	if !readBody(w, r, &req) {
		return
	}
	if strings.TrimSpace(req.Statement) == "" {
		fail(w, http.StatusBadRequest, "ValidationException", "statement is required")
		return
	}
	out, err := h.opts.Explain(r, req.Statement, req.ConsistentRead)
	if err != nil {
		failWith(w, err)
		return
	}
	answer := map[string]any{}
	if s, ok := out.(fmt.Stringer); ok {
		answer["text"] = s.String()
	}
	if b, err := json.Marshal(out); err == nil {
		answer["explain"] = json.RawMessage(b)
	}
	writeJSON(w, http.StatusOK, answer)
}

// failWith answers err: an *Error, or an error with ErrorCode() and
// ErrorMessage() methods, with that type and message; any other as a
// ValidationException with its text.
func failWith(w http.ResponseWriter, err error) {
	var ce *Error
	var api interface {
		ErrorCode() string
		ErrorMessage() string
	}
	switch {
	case errors.As(err, &ce):
		fail(w, http.StatusBadRequest, ce.Type, ce.Message)
	case errors.As(err, &api):
		fail(w, http.StatusBadRequest, api.ErrorCode(), api.ErrorMessage())
	default:
		fail(w, http.StatusBadRequest, "ValidationException", err.Error())
	}
}

// insights answers POST /console/api/insights, {"table": T, "index": I}.
func (h *Handler) insights(w http.ResponseWriter, r *http.Request) {
	if h.opts.TopKeys == nil {
		fail(w, http.StatusNotImplemented, "UnsupportedOperationException", "this server counts no top keys")
		return
	}
	var req struct {
		Table string `json:"table"`
		Index string `json:"index"`
	}
	if !readBody(w, r, &req) {
		return
	}
	if req.Table == "" {
		fail(w, http.StatusBadRequest, "ValidationException", "table is required")
		return
	}
	out, err := h.opts.TopKeys(r, req.Table, req.Index)
	if err != nil {
		failWith(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (h *Handler) capacity(w http.ResponseWriter, r *http.Request) {
	if h.opts.Capacity == nil {
		fail(w, http.StatusNotImplemented, "UnsupportedOperationException", "this server keeps no capacity counters")
		return
	}
	s, err := h.opts.Capacity(r)
	if err != nil {
		fail(w, http.StatusInternalServerError, "InternalServerError", err.Error())
		return
	}
	if s == nil {
		s = []CapacitySample{}
	}
	writeJSON(w, http.StatusOK, map[string]any{"samples": s})
}
