// Package beamlearn runs the rule learning of package learn as an Apache Beam pipeline, for crawl
// logs that outgrow one machine.
package beamlearn
