package cliflag

import (
	"flag"

	"tanknet/netcode"
)

// contactValue is a -contact flag: predicted, server or off; true and false, as the boolean
// flag of earlier versions took them (-contact=false), mean predicted and off.
type contactValue struct{ mode *netcode.ContactMode }

func (v contactValue) String() string {
	if v.mode == nil {
		return ""
	}
	return v.mode.String()
}

func (v contactValue) Set(s string) error {
	m, err := netcode.ParseContactMode(s)
	if err == nil {
		*v.mode = m
	}
	return err
}

// ContactVar defines the -contact flag on fs: how tanks that touch are pushed apart, stored in
// *mode (its value now is the default).
func ContactVar(fs *flag.FlagSet, mode *netcode.ContactMode, usage string) {
	fs.Var(contactValue{mode}, "contact", usage)
}
