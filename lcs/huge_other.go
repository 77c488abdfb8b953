//go:build !linux

package lcs

import "unsafe"

// adviseHuge does nothing here: huge pages are advised on Linux only.
func adviseHuge(p unsafe.Pointer, size int) {}
