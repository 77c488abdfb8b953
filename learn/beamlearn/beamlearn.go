package beamlearn

import (
	"bufio"
	"bytes"
	"context"
	"encoding/gob"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strings"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/fileio"
	_ "github.com/apache/beam/sdks/v2/go/pkg/beam/io/filesystem/local" // local paths
	"github.com/apache/beam/sdks/v2/go/pkg/beam/io/textio"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/register"

	"github.com/undust/undust/learn"
)

// Format is the format of a pipeline's input. The zero value is TSV.
type Format int

const (
	TSV Format = iota // dup clusters: cluster<TAB>url[<TAB>importance[<TAB>inlinks]] (learn.ReadClusters)
	CDX               // a CDX or CDXJ crawl index, clusters by payload digest (learn.CaptureClusters)
)

// Config configures a pipeline. It is a plain value: the zero value reads TSV dup clusters and
// learns with the defaults of learn.Options; Learn copies it into the pipeline's DoFns.
type Config struct {
	Format   Format
	Grouping learn.Grouping // for CDX input: the site of a URL is its host or its domain
	// SkipBad skips malformed lines instead of failing the pipeline on the first one.
	SkipBad bool
	Options learn.Options
}

func init() {
	register.DoFn3x1[context.Context, fileio.ReadableFile, func(string), error](&linesFn{})
	register.DoFn2x1[string, func(string, string), error](&keyFn{})
	register.Emitter2[string, string]()
	register.DoFn2x2[string, func(*string) bool, learn.SiteResult, error](&siteFn{})
	register.Iter1[string]()
	register.DoFn2x2[int, func(*learn.SiteResult) bool, string, error](&assembleFn{})
	register.Iter1[learn.SiteResult]()
	beam.RegisterCoder(reflect.TypeFor[learn.SiteResult](), encodeResult, decodeResult)
}

// Learn adds to s the stages that learn a rules file from lines, the lines of a dup-cluster
// file or a crawl index (ReadLines), and returns a collection of one element: the rules file
// that rules.Set.WriteTo writes, without its final newline (textio.Write adds it). The stages
// are keyed by site, as Koppula et al. (WSDM 2010) §4 key theirs by host: every line is keyed
// by its site; each site's lines are learned by learn.LearnSite; the site results are joined
// by learn.Assemble on one worker.
//
// Beam does not keep the order of lines; the learner does not depend on it (it sorts each
// site's clusters by id and their URLs by text), and each site's lines are also sorted bytewise
// before they are read, so that a URL repeated with different importance resolves the same way
// on every runner: the rules file is that of learn.Learn on the same lines in any order.
func Learn(s beam.Scope, lines beam.PCollection, cfg Config) beam.PCollection {
	s = s.Scope("undust.learn")
	keyed := beam.ParDo(s, &keyFn{Format: cfg.Format, Grouping: cfg.Grouping, SkipBad: cfg.SkipBad}, lines)
	sites := beam.ParDo(s, &siteFn{Format: cfg.Format, Grouping: cfg.Grouping, Options: cfg.Options},
		beam.GroupByKey(s, keyed))
	return beam.ParDo(s, &assembleFn{Options: cfg.Options}, beam.GroupByKey(s, beam.AddFixedKey(s, sites)))
}

// LearnFiles is Learn on the lines of the files that glob names (ReadLines: any filesystem
// Beam reads, gzip by the .gz suffix) with the rules file written to out, one file.
func LearnFiles(s beam.Scope, glob, out string, cfg Config) {
	textio.Write(s, out, Learn(s, ReadLines(s, glob), cfg))
}

// ReadLines returns the lines of the files that glob names, without their line ends, each
// file read whole by one worker and gunzipped first when its name ends in .gz. (textio.Read
// splits a file at byte offsets of its compressed size, and so reads only the first part of
// a compressed file.)
func ReadLines(s beam.Scope, glob string) beam.PCollection {
	s = s.Scope("undust.readlines")
	files := fileio.ReadMatches(s, fileio.MatchFiles(s, glob), fileio.ReadAutoCompression())
	return beam.ParDo(s, &linesFn{}, files)
}

// linesFn emits the lines of one file.
type linesFn struct{}

func (linesFn) ProcessElement(ctx context.Context, file fileio.ReadableFile, emit func(string)) error {
	rc, err := file.Open(ctx)
	if err != nil {
		return err
	}
	defer rc.Close()
	return eachLine(rc, file.Metadata.Path, -1, func(_ int, line []byte, _ bool) error {
		emit(strings.TrimSuffix(strings.TrimSuffix(string(line), "\n"), "\r"))
		return nil
	})
}

// eachLine calls fn with each line of r, its number from 1 and its line end included, in a
// buffer fn must not keep. A line longer than max bytes (max >= 0) is not kept: fn gets it
// empty, with long set. The last line may lack its end; an empty file has no line. Its error is
// fn's, or a read error naming name.
func eachLine(r io.Reader, name string, max int, fn func(n int, line []byte, long bool) error) error {
	rd := bufio.NewReaderSize(r, 64<<10)
	var line []byte
	for n := 1; ; n++ {
		line = line[:0]
		long := false
		var err error
		for {
			var chunk []byte
			chunk, err = rd.ReadSlice('\n')
			if !long {
				if max >= 0 && len(line)+len(chunk) > max {
					long, line = true, line[:0]
				} else {
					line = append(line, chunk...)
				}
			}
			if err != bufio.ErrBufferFull {
				break
			}
		}
		if err != nil && err != io.EOF {
			return fmt.Errorf("beamlearn: %s: %w", name, err)
		}
		if len(line) > 0 || long {
			if ferr := fn(n, line, long); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
	}
}

// keyFn keys each line by its site; comment, header and blank lines are dropped.
type keyFn struct {
	Format   Format
	Grouping learn.Grouping
	SkipBad  bool
}

func (f *keyFn) ProcessElement(line string, emit func(string, string)) error {
	site, ok, err := siteOf(line, f.Format, f.Grouping)
	if err != nil {
		if f.SkipBad {
			return nil
		}
		return err
	}
	if ok {
		emit(site, line)
	}
	return nil
}

// siteOf returns the site of one input line with the core's readers; ok is false for a line
// that holds no record.
func siteOf(line string, format Format, g learn.Grouping) (site string, ok bool, err error) {
	if format == CDX {
		cls, err := learn.CaptureClusters(learn.NewCDXReader(strings.NewReader(line), learn.ReaderOptions{}), g)
		if err != nil || len(cls) == 0 {
			return "", false, err
		}
		return cls[0].Site, true, nil
	}
	r := learn.NewTSVReader(strings.NewReader(line), learn.ReaderOptions{})
	if !r.Next() {
		return "", false, r.Err()
	}
	return learn.SiteOf(r.Record().Cluster), true, nil
}

// siteFn learns one site from its lines.
type siteFn struct {
	Format   Format
	Grouping learn.Grouping
	Options  learn.Options
}

func (f *siteFn) ProcessElement(site string, lines func(*string) bool) (learn.SiteResult, error) {
	var all []string
	var line string
	for lines(&line) {
		all = append(all, line)
	}
	slices.Sort(all)
	text := strings.Join(all, "\n") + "\n"
	var cls []learn.Cluster
	var err error
	if f.Format == CDX {
		cls, err = learn.CaptureClusters(learn.NewCDXReader(strings.NewReader(text), learn.ReaderOptions{}), f.Grouping)
	} else {
		cls, _, err = learn.ReadClusters(strings.NewReader(text), learn.ReaderOptions{Sites: learn.ByID})
	}
	if err != nil {
		return learn.SiteResult{}, fmt.Errorf("beamlearn: site %q: %w", site, err)
	}
	return learn.LearnSite(site, cls, f.Options), nil
}

// assembleFn joins the site results into the rules file.
type assembleFn struct {
	Options learn.Options
}

func (f *assembleFn) ProcessElement(_ int, results func(*learn.SiteResult) bool) (string, error) {
	var all []learn.SiteResult
	var r learn.SiteResult
	for results(&r) {
		all = append(all, r)
		r = learn.SiteResult{}
	}
	set, _, err := learn.Assemble(all, f.Options)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	if _, err := set.WriteTo(&b); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}

// encodeResult and decodeResult are Beam's coder of learn.SiteResult: encoding/gob of its
// plain exported fields.
func encodeResult(r learn.SiteResult) ([]byte, error) {
	var b bytes.Buffer
	err := gob.NewEncoder(&b).Encode(r)
	return b.Bytes(), err
}

func decodeResult(data []byte) (learn.SiteResult, error) {
	var r learn.SiteResult
	err := gob.NewDecoder(bytes.NewReader(data)).Decode(&r)
	return r, err
}
