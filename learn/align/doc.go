// Package align learns URL rewrite rules by multiple URL alignment.
package align
