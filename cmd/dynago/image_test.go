//go:build linux

package main

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// TestContainerImage builds the container image as scripts/build-image
// does (Containerfile, FROM scratch, with buildah), checks its config and
// files, then runs its entry point with the command lines users give and
// talks to it with the AWS CLI: in a container engine when one answers on
// the machine (docker, else podman), otherwise chrooted into the image's
// unpacked root file system as the image's user, with its environment
// and working directory, as an engine would start it.
//
// It runs when DYNAGO_TEST_IMAGE=1 (.ci/run sets it). It needs buildah,
// the AWS CLI, and root or a container engine; without them it skips with
// a message, or fails under CI=true, where .ci/run installs them.
func TestContainerImage(t *testing.T) {
	if os.Getenv("DYNAGO_TEST_IMAGE") != "1" {
		t.Skip("set DYNAGO_TEST_IMAGE=1 to build the container image and run it (.ci/run does); it needs buildah and the AWS CLI")
	}
	mustRun := func(msg string) {
		t.Helper()
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + " (CI=true: .ci/run installs it)")
		}
		t.Skip(msg)
	}
	if _, err := exec.LookPath("buildah"); err != nil {
		mustRun("buildah is not installed (Debian: apt-get install buildah)")
	}
	if _, err := exec.LookPath("aws"); err != nil {
		mustRun("the AWS CLI is not installed (Debian: apt-get install awscli)")
	}
	engine := containerEngine()
	if engine == "" && os.Geteuid() != 0 {
		mustRun("no container engine answers, and running the image's entry point chrooted needs root")
	}

	dir := t.TempDir()
	archive := filepath.Join(dir, "dynago-image.tar")
	const tag = "dynago:test"
	// With an engine the script loads the image into it, as for users.
	args := []string{"--out", archive, "--tag", tag}
	if engine == "" {
		args = append(args, "--no-load")
	}
	build := exec.Command("../../scripts/build-image", args...)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("scripts/build-image: %v\n%s", err, out)
	}
	img := readOCIArchive(t, archive)
	cfg := img.Config.Config

	t.Run("config", func(t *testing.T) {
		uid, gid := parseUser(t, cfg.User)
		if uid == 0 || gid == 0 {
			t.Errorf("User %q: the image runs as root", cfg.User)
		}
		if _, ok := cfg.ExposedPorts["8000/tcp"]; !ok || len(cfg.ExposedPorts) != 1 {
			t.Errorf("ExposedPorts %v; want 8000/tcp", cfg.ExposedPorts)
		}
		if _, ok := cfg.Volumes["/data"]; !ok || len(cfg.Volumes) != 1 {
			t.Errorf("Volumes %v; want /data", cfg.Volumes)
		}
		if want := []string{"/usr/local/bin/dynago"}; !slices.Equal(cfg.Entrypoint, want) {
			t.Errorf("Entrypoint %q; want %q", cfg.Entrypoint, want)
		}
		if want := []string{"serve", "--host", "0.0.0.0"}; !slices.Equal(cfg.Cmd, want) {
			t.Errorf("Cmd %q; want %q", cfg.Cmd, want)
		}
		for _, env := range []string{"DYNAGO_HOST=0.0.0.0", "DYNAGO_DATA_DIR=/data"} {
			if !slices.Contains(cfg.Env, env) {
				t.Errorf("Env %q lacks %s", cfg.Env, env)
			}
		}
		if cfg.WorkingDir != "/data" {
			t.Errorf("WorkingDir %q; want /data", cfg.WorkingDir)
		}
		for label, want := range map[string]string{
			"org.opencontainers.image.source":   "https://github.com/dynago/dynago",
			"org.opencontainers.image.licenses": "Apache-2.0",
		} {
			if got := cfg.Labels[label]; got != want {
				t.Errorf("label %s = %q; want %q", label, got, want)
			}
		}
		if cfg.Labels["org.opencontainers.image.version"] == "" {
			t.Errorf("no label org.opencontainers.image.version in %v", cfg.Labels)
		}
		if img.Config.OS != "linux" || len(img.Layers) != 1 {
			t.Errorf("os %q with %d layers; want linux with one layer (FROM scratch)", img.Config.OS, len(img.Layers))
		}
	})

	rootfs := filepath.Join(dir, "rootfs")
	files := unpackLayers(t, img, rootfs)
	t.Run("files", func(t *testing.T) {
		// Exactly these, so that nothing else (a shell, a package
		// manager, a base image's files) slips in.
		want := []string{
			"data/", "etc/", "etc/group", "etc/passwd", "etc/ssl/", "etc/ssl/certs/",
			"etc/ssl/certs/ca-certificates.crt", "usr/", "usr/local/", "usr/local/bin/", "usr/local/bin/dynago",
		}
		var names []string
		for name := range files {
			names = append(names, name)
		}
		slices.Sort(names)
		if !slices.Equal(names, want) {
			t.Errorf("the image holds %q; want exactly %q", names, want)
		}
		for _, shell := range []string{"bin/sh", "bin/bash", "bin/busybox"} {
			if _, err := os.Lstat(filepath.Join(rootfs, shell)); err == nil {
				t.Errorf("the image has a shell, /%s", shell)
			}
		}
		uid, gid := parseUser(t, cfg.User)
		if h := files["data/"]; h == nil || h.Uid != uid || h.Gid != gid {
			t.Errorf("/data: %+v; want it owned by the image's user %d:%d", h, uid, gid)
		}
		for _, name := range []string{"usr/local/bin/dynago", "etc/passwd", "etc/ssl/certs/ca-certificates.crt"} {
			if h := files[name]; h == nil || h.Uid != 0 || h.Mode&0o022 != 0 {
				t.Errorf("/%s: %+v; want it root's and not writable by others", name, h)
			}
		}
		passwd, err := os.ReadFile(filepath.Join(rootfs, "etc/passwd"))
		if err != nil || !regexp.MustCompile(fmt.Sprintf(`(?m)^dynago:x:%d:%d:`, uid, gid)).Match(passwd) {
			t.Errorf("/etc/passwd does not name the user dynago as %d:%d: %v\n%s", uid, gid, err, passwd)
		}
		certs, err := os.ReadFile(filepath.Join(rootfs, "etc/ssl/certs/ca-certificates.crt"))
		if err != nil || bytes.Count(certs, []byte("BEGIN CERTIFICATE")) < 50 {
			t.Errorf("/etc/ssl/certs/ca-certificates.crt: %d certificates, %v", bytes.Count(certs, []byte("BEGIN CERTIFICATE")), err)
		}
	})

	// A verb in place of the command: "docker run IMAGE version". An
	// engine that answers but cannot run a container here (one refused
	// the resource limits it sets) leaves the chrooted run.
	var version []byte
	if engine != "" {
		t.Cleanup(func() { exec.Command(engine, "rmi", tag).Run() })
		var err error
		version, err = exec.Command(engine, "run", "--rm", tag, "version").CombinedOutput()
		if err != nil {
			t.Logf("%s answers but does not run the image here (%v: %s): running its entry point chrooted instead", engine, err, bytes.TrimSpace(version))
			engine = ""
			if os.Geteuid() != 0 {
				mustRun("the container engine does not run containers, and running the image's entry point chrooted needs root")
			}
		}
	}
	var start func(t *testing.T, args []string) *imageProcess
	if engine != "" {
		t.Logf("running the image in %s", engine)
		start = func(t *testing.T, args []string) *imageProcess { return startInEngine(t, engine, tag, args) }
	} else {
		t.Logf("running the image's entry point chrooted into its root file system")
		start = func(t *testing.T, args []string) *imageProcess { return startChrooted(t, rootfs, cfg, args) }
		version = runChrooted(t, rootfs, cfg, "version")
	}
	if !bytes.HasPrefix(version, []byte("dynago ")) || !bytes.Contains(version, []byte("linux/")) {
		t.Errorf("the image run with the command \"version\" printed %q; want dynago's version line", version)
	}

	for i, tc := range []struct {
		name string
		// args replace the image's command (nil: the command stays), as
		// after "docker run IMAGE".
		args []string
		// data and namespace are what the server logs it serves from.
		data, namespace string
		// dataDir is where the data lands inside the image, when on disk.
		dataDir string
	}{
		// docker run -p 8000:8000 IMAGE: the documented way of running
		// DynamoDB Local's image too ("docker run -p 8000:8000
		// amazon/dynamodb-local", AWS's DynamoDB Local guide,
		// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/DynamoDBLocal.DownloadingAndRunning.html).
		{name: "the image's command", data: "/data", namespace: "shared", dataDir: "/data"},
		// DynamoDB Local's flags alone, as they are given to its jar
		// (AWS's DynamoDB Local usage notes,
		// https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/DynamoDBLocal.UsageNotes.html).
		{name: "DynamoDB Local's flags", args: []string{"-inMemory", "-sharedDb"}, data: "in memory", namespace: "shared"},
		// The command of AWS's docker compose example for DynamoDB Local's
		// image (DynamoDBLocal.DownloadingAndRunning.html, above), its
		// relative -dbPath under the image's working directory.
		{name: "DynamoDB Local's compose command", args: []string{"-jar", "DynamoDBLocal.jar", "-sharedDb", "-dbPath", "./data"}, data: "./data", namespace: "shared", dataDir: "/data/data"},
		// Without -sharedDb, DynamoDB Local keeps tables per access key
		// and region (usage notes, above): so does dynago.
		{name: "DynamoDB Local's flags without -sharedDb", args: []string{"-inMemory"}, data: "in memory", namespace: "account-region"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := start(t, tc.args)
			// Every address, so that a published port reaches it.
			if h, _, err := net.SplitHostPort(p.addr); err != nil || (h != "::" && h != "0.0.0.0") {
				t.Errorf("serving on %q; want every address (0.0.0.0)\n%s", p.addr, p.Log())
			}
			for field, want := range map[string]string{"data": tc.data, "namespace": tc.namespace} {
				if got := logField(p.Log(), field); got != want {
					t.Errorf("the log's %s=%q; want %q\n%s", field, got, want, p.Log())
				}
			}
			if tc.dataDir == "" {
				// In memory: that the API answers, with one call (the
				// AWS CLI takes seconds to start on a busy machine).
				var list struct{ TableNames []string }
				awsImage(t, p.url, &list, "list-tables")
				if list.TableNames == nil || len(list.TableNames) != 0 {
					t.Errorf("list-tables: %q; want []", list.TableNames)
				}
				p.stop(t)
				return
			}
			table := fmt.Sprintf("Music%d", i)
			item := `{"Artist":{"S":"No One You Know"},"Song":{"S":"Call Me Today"},"Year":{"N":"2015"}}`
			key := `{"Artist":{"S":"No One You Know"},"Song":{"S":"Call Me Today"}}`
			var created struct {
				TableDescription struct{ TableName, TableStatus string }
			}
			awsImage(t, p.url, &created, "create-table", "--table-name", table,
				"--attribute-definitions", "AttributeName=Artist,AttributeType=S", "AttributeName=Song,AttributeType=S",
				"--key-schema", "AttributeName=Artist,KeyType=HASH", "AttributeName=Song,KeyType=RANGE",
				"--billing-mode", "PAY_PER_REQUEST")
			if created.TableDescription.TableName != table || created.TableDescription.TableStatus != "ACTIVE" {
				t.Errorf("create-table: %+v; want %s ACTIVE", created.TableDescription, table)
			}
			awsImage(t, p.url, nil, "put-item", "--table-name", table, "--item", item)
			var got struct {
				Item             map[string]map[string]string
				ConsumedCapacity struct{ CapacityUnits float64 }
			}
			awsImage(t, p.url, &got, "get-item", "--table-name", table, "--key", key, "--return-consumed-capacity", "TOTAL")
			var want map[string]map[string]string
			if err := json.Unmarshal([]byte(item), &want); err != nil {
				t.Fatal(err)
			}
			if fmt.Sprint(got.Item) != fmt.Sprint(want) || got.ConsumedCapacity.CapacityUnits != 0.5 {
				t.Errorf("get-item: %v, %v units; want %v, 0.5 units", got.Item, got.ConsumedCapacity.CapacityUnits, want)
			}
			p.stop(t)
			if tc.dataDir != "" && p.rootfs != "" {
				entries, err := os.ReadDir(filepath.Join(p.rootfs, tc.dataDir))
				if err != nil || len(entries) == 0 {
					t.Errorf("%s in the image holds %d files, %v; want the data there", tc.dataDir, len(entries), err)
				}
			}
		})
	}
}

// ociImage is what the test reads of an OCI image: its config and the
// layers' blobs, in order.
type ociImage struct {
	Config struct {
		OS     string      `json:"os"`
		Config imageConfig `json:"config"`
	}
	Layers []ociLayer
}

// imageConfig is how an OCI image config says to run the image.
type imageConfig struct {
	User         string
	ExposedPorts map[string]struct{}
	Env          []string
	Entrypoint   []string
	Cmd          []string
	Volumes      map[string]struct{}
	WorkingDir   string
	Labels       map[string]string
}

type ociLayer struct {
	MediaType string
	Data      []byte
}

// readOCIArchive reads an OCI archive (an OCI image layout in a tar, as
// "buildah push oci-archive:" writes it) holding one image.
func readOCIArchive(t *testing.T, archive string) *ociImage {
	t.Helper()
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	blobs := map[string][]byte{}
	tr := tar.NewReader(f)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		blobs[path.Clean(h.Name)] = data
	}
	blob := func(digest string) []byte {
		algo, hex, _ := strings.Cut(digest, ":")
		data, ok := blobs[path.Join("blobs", algo, hex)]
		if !ok {
			t.Fatalf("the archive has no blob %s", digest)
		}
		return data
	}
	type descriptor struct {
		MediaType string `json:"mediaType"`
		Digest    string `json:"digest"`
	}
	var index struct {
		Manifests []descriptor `json:"manifests"`
	}
	if err := json.Unmarshal(blobs["index.json"], &index); err != nil || len(index.Manifests) != 1 {
		t.Fatalf("index.json: %v, %d manifests; want one", err, len(index.Manifests))
	}
	var manifest struct {
		Config descriptor   `json:"config"`
		Layers []descriptor `json:"layers"`
	}
	if err := json.Unmarshal(blob(index.Manifests[0].Digest), &manifest); err != nil {
		t.Fatal(err)
	}
	img := &ociImage{}
	if err := json.Unmarshal(blob(manifest.Config.Digest), &img.Config); err != nil {
		t.Fatal(err)
	}
	for _, l := range manifest.Layers {
		img.Layers = append(img.Layers, ociLayer{MediaType: l.MediaType, Data: blob(l.Digest)})
	}
	return img
}

// unpackLayers writes the image's layers into dir, in order, with their
// owners and modes, and returns the headers of what they hold by name
// ("etc/passwd", "data/"). The image is FROM scratch: a whiteout, which
// only a layer over another would need, fails the test.
func unpackLayers(t *testing.T, img *ociImage, dir string) map[string]*tar.Header {
	t.Helper()
	files := map[string]*tar.Header{}
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, l := range img.Layers {
		var r io.Reader = bytes.NewReader(l.Data)
		switch l.MediaType {
		case "application/vnd.oci.image.layer.v1.tar+gzip":
			zr, err := gzip.NewReader(r)
			if err != nil {
				t.Fatal(err)
			}
			r = zr
		case "application/vnd.oci.image.layer.v1.tar":
		default:
			t.Fatalf("a layer of media type %s", l.MediaType)
		}
		tr := tar.NewReader(r)
		for {
			h, err := tr.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			name := strings.TrimPrefix(path.Clean("/"+h.Name), "/")
			if name == "" {
				continue
			}
			if strings.HasPrefix(path.Base(name), ".wh.") {
				t.Fatalf("a whiteout in a FROM scratch image: %s", h.Name)
			}
			target := filepath.Join(dir, filepath.FromSlash(name))
			switch h.Typeflag {
			case tar.TypeDir:
				files[name+"/"] = h
				if err := os.MkdirAll(target, 0o755); err != nil {
					t.Fatal(err)
				}
			case tar.TypeReg:
				files[name] = h
				f, err := os.OpenFile(target, os.O_CREATE|os.O_TRUNC|os.O_WRONLY, 0o600)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := io.Copy(f, tr); err != nil {
					t.Fatal(err)
				}
				if err := f.Close(); err != nil {
					t.Fatal(err)
				}
			default:
				t.Fatalf("%s: an entry of type %c, which the image should not need", h.Name, h.Typeflag)
			}
			if err := os.Chmod(target, os.FileMode(h.Mode).Perm()); err != nil {
				t.Fatal(err)
			}
			if os.Geteuid() == 0 {
				if err := os.Lchown(target, h.Uid, h.Gid); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	return files
}

// parseUser reads an image config's User, "uid:gid" in numbers.
func parseUser(t *testing.T, user string) (uid, gid int) {
	t.Helper()
	u, g, ok := strings.Cut(user, ":")
	uid, err1 := strconv.Atoi(u)
	gid, err2 := strconv.Atoi(g)
	if !ok || err1 != nil || err2 != nil {
		t.Fatalf("User %q is not uid:gid in numbers", user)
	}
	return uid, gid
}

// containerEngine returns "docker" or "podman" when its engine answers,
// or "".
func containerEngine() string {
	for _, engine := range []string{"docker", "podman"} {
		if _, err := exec.LookPath(engine); err != nil {
			continue
		}
		if exec.Command(engine, "info").Run() == nil {
			return engine
		}
	}
	return ""
}

// imageProcess is the image's entry point running: its log (stderr), the
// address it logged it serves on, and the URL a client on this machine
// reaches it at.
type imageProcess struct {
	addr, url string
	// rootfs is the root file system it runs in, when chrooted.
	rootfs string
	stop   func(t *testing.T)

	mu  sync.Mutex
	log strings.Builder
}

func (p *imageProcess) Log() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.log.String()
}

var servingAddr = regexp.MustCompile(`msg="dynago serving" addr=https?://(\S+)`)

// follow copies r into p's log, and returns a channel that receives the
// address once the server logs that it serves, and one closed at r's end.
func (p *imageProcess) follow(r io.Reader) (<-chan string, <-chan struct{}) {
	addr := make(chan string, 1)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc := bufio.NewScanner(r)
		for sc.Scan() {
			p.mu.Lock()
			p.log.WriteString(sc.Text() + "\n")
			p.mu.Unlock()
			if m := servingAddr.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case addr <- m[1]:
				default:
				}
			}
		}
		io.Copy(io.Discard, r)
	}()
	return addr, done
}

// waitServing waits for the address the server logs.
func (p *imageProcess) waitServing(t *testing.T, addr <-chan string, done <-chan struct{}) {
	t.Helper()
	select {
	case a := <-addr:
		p.addr = a
	case <-done:
		t.Fatalf("the image's entry point exited before serving:\n%s", p.Log())
	case <-time.After(2 * time.Minute):
		t.Fatalf("the image's entry point did not start serving:\n%s", p.Log())
	}
}

// chrooted returns the command running the image's entry point with args
// as an engine would: chrooted into rootfs, as the image's User, in its
// WorkingDir, with exactly its Env.
func chrooted(t *testing.T, rootfs string, cfg imageConfig, args ...string) *exec.Cmd {
	t.Helper()
	argv := append(slices.Clone(cfg.Entrypoint), args...)
	uid, gid := parseUser(t, cfg.User)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = cfg.Env
	cmd.Dir = cfg.WorkingDir
	cmd.SysProcAttr = &syscall.SysProcAttr{
		Chroot:     rootfs,
		Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}},
	}
	return cmd
}

// runChrooted runs the image's entry point with args to its end and
// returns what it printed.
func runChrooted(t *testing.T, rootfs string, cfg imageConfig, args ...string) []byte {
	t.Helper()
	out, err := chrooted(t, rootfs, cfg, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("%q chrooted: %v\n%s", args, err, out)
	}
	return out
}

// startChrooted runs the image's entry point as an engine would: its
// Entrypoint with args (or its Cmd when args is nil) and a free port,
// chrooted into rootfs, as the image's User, in its WorkingDir, with
// exactly its Env.
func startChrooted(t *testing.T, rootfs string, cfg imageConfig, args []string) *imageProcess {
	t.Helper()
	if args == nil {
		args = cfg.Cmd
	}
	args = append(slices.Clone(args), "--port", "0")
	cmd := chrooted(t, rootfs, cfg, args...)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("%q chrooted: %v", args, err)
	}
	p := &imageProcess{rootfs: rootfs}
	addr, done := p.follow(stderr)
	exited := make(chan error, 1)
	go func() {
		<-done
		exited <- cmd.Wait()
	}()
	stopped := false
	p.stop = func(t *testing.T) {
		t.Helper()
		stopped = true
		cmd.Process.Signal(syscall.SIGTERM)
		if err := <-exited; err != nil {
			t.Errorf("after SIGTERM: %v\n%s", err, p.Log())
		}
	}
	t.Cleanup(func() {
		if !stopped {
			cmd.Process.Kill()
			<-exited
		}
	})
	p.waitServing(t, addr, done)
	_, port, err := net.SplitHostPort(p.addr)
	if err != nil {
		t.Fatal(err)
	}
	p.url = "http://127.0.0.1:" + port
	return p
}

// startInEngine runs the image in a container engine, its port 8000
// published on a free loopback port.
func startInEngine(t *testing.T, engine, image string, args []string) *imageProcess {
	t.Helper()
	run := append([]string{"run", "-d", "-p", "127.0.0.1::8000", image}, args...)
	out, err := exec.Command(engine, run...).Output()
	if err != nil {
		var stderr []byte
		if ee, ok := err.(*exec.ExitError); ok {
			stderr = ee.Stderr
		}
		t.Fatalf("%s %q: %v\n%s", engine, run, err, stderr)
	}
	id := strings.TrimSpace(string(out))
	t.Cleanup(func() { exec.Command(engine, "rm", "-f", id).Run() })
	logs := exec.Command(engine, "logs", "-f", id)
	pr, pw := io.Pipe()
	logs.Stdout, logs.Stderr = pw, pw
	if err := logs.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { pw.CloseWithError(logs.Wait()) }()
	p := &imageProcess{}
	addr, done := p.follow(pr)
	p.waitServing(t, addr, done)
	out, err = exec.Command(engine, "port", id, "8000/tcp").Output()
	if err != nil {
		t.Fatalf("%s port: %v", engine, err)
	}
	hostPort, _, _ := strings.Cut(strings.TrimSpace(string(out)), "\n")
	p.url = "http://" + hostPort
	p.stop = func(t *testing.T) {
		t.Helper()
		if out, err := exec.Command(engine, "stop", id).CombinedOutput(); err != nil {
			t.Errorf("%s stop: %v\n%s", engine, err, out)
		}
		<-done
		out, err := exec.Command(engine, "inspect", "--format", "{{.State.ExitCode}}", id).Output()
		if err != nil || strings.TrimSpace(string(out)) != "0" {
			t.Errorf("exit code after stop: %q, %v\n%s", out, err, p.Log())
		}
	}
	return p
}

// logField returns the value of a field of the server's "dynago serving"
// line: data="in memory" or namespace=shared.
func logField(log, field string) string {
	for _, line := range strings.Split(log, "\n") {
		if !strings.Contains(line, `msg="dynago serving"`) {
			continue
		}
		m := regexp.MustCompile(` ` + field + `=("[^"]*"|\S*)`).FindStringSubmatch(line)
		if m == nil {
			return ""
		}
		if v, err := strconv.Unquote(m[1]); err == nil {
			return v
		}
		return m[1]
	}
	return ""
}

// awsImage runs "aws dynamodb ARGS" against url with any key, as the
// README's first example does, and decodes its JSON answer into out.
func awsImage(t *testing.T, url string, out any, args ...string) {
	t.Helper()
	cmd := exec.Command("aws", append([]string{"dynamodb", "--endpoint-url", url, "--output", "json"}, args...)...)
	cmd.Env = append(os.Environ(),
		"AWS_ACCESS_KEY_ID=any", "AWS_SECRET_ACCESS_KEY=any", "AWS_DEFAULT_REGION=us-east-1",
		"AWS_CONFIG_FILE=/nonexistent", "AWS_SHARED_CREDENTIALS_FILE=/nonexistent", "AWS_PAGER=")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("aws dynamodb %q: %v\n%s", args, err, stderr.String())
	}
	if out != nil {
		if err := json.Unmarshal(stdout, out); err != nil {
			t.Fatalf("aws dynamodb %q: %v\n%s", args, err, stdout)
		}
	}
}
