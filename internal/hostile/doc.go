// Package hostile generates adversarial inputs for the library's loaders and
// hot functions: long lines, deep nesting, many distinct keys, repeated
// labels, oversized index layouts and truncated files. Tests use them to check
// that time and memory grow at most linearly with the input (see Linear), and
// benchmarks and fuzz targets use them as seeds, so every shape is written
// once.
//
// Every generator is deterministic: the same arguments give the same bytes.
package hostile
