package netcode

// TankView is how a client drew one remote tank: the tank's player id and the View.
type TankView struct {
	ID   uint32
	View View
}

// ShotRequest is one Fire as netcode sees it: the shooter's move tick, whether it asks for
// lag compensation, and how it drew every other tank at that moment.
type ShotRequest struct {
	MoveTick        uint32
	LagCompensation bool
	Views           []TankView
}

// ShotVerdict is the server's judgement of one shot.
type ShotVerdict uint8

// The verdicts, numbered as on the wire (PROTOCOL.md §3).
const (
	VerdictNone    ShotVerdict = iota // not judged (the zero value)
	VerdictHit                        // the shell struck TargetID
	VerdictMiss                       // judged, and it struck nothing
	VerdictRefused                    // not judged: Refusal says why
)

// ShotRefusal is why the server refused to judge a shot.
type ShotRefusal uint8

// The refusals, numbered as on the wire (PROTOCOL.md §3).
const (
	RefusalNone         ShotRefusal = iota // not refused
	RefusalBadView                         // a view names no tank, itself, a repeat, or a state never sent
	RefusalFutureView                      // a view lies at or after the judging tick
	RefusalViewTooOld                      // a view lies further back than the client could have drawn
	RefusalUnplayedTick                    // the shot's move tick was never sent
	RefusalStaleTick                       // the shot's move tick is too old to be remembered
	RefusalCooldown                        // the gun has not cooled since the last shot
	RefusalDestroyed                       // the shooter is a wreck
)

var refusalLabels = [...]string{"unspecified", "bad_view", "future_view", "view_too_old",
	"unplayed_tick", "stale_tick", "cooldown", "destroyed"}

// Label names r as reports and metrics spell it: lower case, e.g. "view_too_old".
func (r ShotRefusal) Label() string {
	if int(r) < len(refusalLabels) {
		return refusalLabels[r]
	}
	return "unknown"
}

// ShotResult is what the server tells a shooter about one of its shots.
type ShotResult struct {
	MoveTick   uint32 // the shooter's move tick the shot followed
	ServerTick uint32 // the tick it was judged in
	Verdict    ShotVerdict
	Refusal    ShotRefusal // set when Verdict is VerdictRefused
	// TargetID is the tank hit (VerdictHit), and TargetPose where the server saw it then.
	TargetID   uint32
	TargetPose Pose
	// Origin and End are where the shell started and stopped (not set for a refusal).
	OriginX, OriginY float64
	EndX, EndY       float64
	LagCompensated   bool
	RewindMs         float64 // how far back the targets were rewound
	Damage           uint32  // the health the hit took
}

// Shot is a tracer every nearby client is told of: who fired, in which tick, from where to
// where, and the tank struck (0: none).
type Shot struct {
	ShooterID, ServerTick uint32
	OriginX, OriginY      float64
	EndX, EndY            float64
	TargetID              uint32
}

// Kill says that Killer's shot destroyed Victim in ServerTick.
type Kill struct {
	KillerID, VictimID, ServerTick uint32
}
