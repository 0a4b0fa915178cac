package wire

import (
	"google.golang.org/protobuf/proto"

	"tanknet/netcode"
	tankv1 "tanknet/proto/tank/v1"
)

// ServerMessage is one message from the server as plain Go values: one of
//
//	Welcome, Reject  the answer to a Hello
//	*Snapshot        a whole snapshot (reliable lane) or one chunk of one (datagram lane)
//	Roster           players joining and leaving
//	ShotResult       the judgement of one of our shots
//	Shot             a tracer someone fired
//	Kill             a tank destroyed
//	Pong             the answer to a Ping
//	RulesChanged     the room's rules changed (its contact mode)
//	Disconnect       the server dropping us
//
// The unexported method seals it: exactly these types are ServerMessages, so a wrong one
// fails to compile. ServerMessageFromProto makes one of the wire form, with the receiver's
// checks, and ServerMessageToProto the reverse: a client switches on these types and never
// reads a protobuf message.
type ServerMessage interface {
	serverEnvelope() *tankv1.ServerMessage
}

// ShotResult is the judgement of one of the receiver's shots (ShotResultToProto).
type ShotResult netcode.ShotResult

// Shot is a tracer someone fired (ShotToProto).
type Shot netcode.Shot

// Kill is a tank destroyed (KillToProto).
type Kill netcode.Kill

// Snapshot is one snapshot message as a client receives it: a whole snapshot from the
// stream, or one chunk of one from the datagram lane, perhaps described against a baseline
// (PROTOCOL.md §1.3, §1.7). Baselines.Tanks gives its tanks whole.
type Snapshot struct {
	Header              // the tick, and the tanks that left our view (chunk 0 or whole only)
	Index, Count uint32 // the chunk's place among its tick's chunks; 0, 0 for a whole snapshot
	Tanks        []Tank // the tanks sent whole, in player id order
	// Baseline is the tick the tanks below are described against; 0 for none.
	Baseline  uint32
	Unchanged []uint32 // id gaps of the tanks unchanged since the baseline
	Moved     []int32  // per moved tank: its id gap, then dx, dy, dheading in grid steps
}

// Roster is a RosterUpdate: players that entered (apply first) and players that left.
type Roster struct {
	Joined []Player
	Left   []Departure
}

// Player is one player entering: its id and name.
type Player struct {
	ID   uint32
	Name string
}

// Departure is one player leaving, and why in words.
type Departure struct {
	ID     uint32
	Reason string
}

// Pong answers a Ping: the ping's stamp echoed, and the server tick it was read in.
type Pong struct {
	ClientTimeUs uint64
	ServerTick   uint32
}

// ServerMessageFromProto returns what m says, checked as a client checks it: a Welcome's arena and
// rules, and a RulesChanged's rules, must be usable (see WelcomeFromProto), and every tank a
// snapshot carries whole must be of the snapshot's own tick and of a player other than 0. It
// returns nil and no error for an empty envelope or a kind this version does not know: the
// client skips those.
func ServerMessageFromProto(m *tankv1.ServerMessage) (ServerMessage, error) {
	switch k := m.GetKind().(type) {
	case *tankv1.ServerMessage_Welcome:
		return WelcomeFromProto(k.Welcome)
	case *tankv1.ServerMessage_Reject:
		return RejectFromProto(k.Reject), nil
	case *tankv1.ServerMessage_Snapshot:
		return SnapshotFromProto(k.Snapshot)
	case *tankv1.ServerMessage_RosterUpdate:
		return RosterFromProto(k.RosterUpdate), nil
	case *tankv1.ServerMessage_ShotResult:
		return ShotResult(ShotResultFromProto(k.ShotResult)), nil
	case *tankv1.ServerMessage_Shot:
		return Shot(ShotFromProto(k.Shot)), nil
	case *tankv1.ServerMessage_Kill:
		return Kill(KillFromProto(k.Kill)), nil
	case *tankv1.ServerMessage_Pong:
		return Pong{ClientTimeUs: k.Pong.GetClientTimeUs(), ServerTick: k.Pong.GetServerTick()}, nil
	case *tankv1.ServerMessage_RulesChanged:
		return RulesChangedFromProto(k.RulesChanged)
	case *tankv1.ServerMessage_Disconnect:
		return DisconnectFromProto(k.Disconnect), nil
	}
	return nil, nil
}

// ServerMessageToProto returns the envelope carrying m. ServerMessageFromProto(
// ServerMessageToProto(m)) is m again.
func ServerMessageToProto(m ServerMessage) *tankv1.ServerMessage { return m.serverEnvelope() }

func (w Welcome) serverEnvelope() *tankv1.ServerMessage {
	return &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Welcome{Welcome: WelcomeToProto(w)}}
}

func (r Reject) serverEnvelope() *tankv1.ServerMessage {
	return &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Reject{Reject: RejectToProto(r)}}
}

func (s *Snapshot) serverEnvelope() *tankv1.ServerMessage {
	return &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Snapshot{Snapshot: SnapshotToProto(s)}}
}

func (r Roster) serverEnvelope() *tankv1.ServerMessage {
	return &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_RosterUpdate{RosterUpdate: RosterToProto(r)}}
}

func (r ShotResult) serverEnvelope() *tankv1.ServerMessage {
	return &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_ShotResult{ShotResult: ShotResultToProto(netcode.ShotResult(r))}}
}

func (s Shot) serverEnvelope() *tankv1.ServerMessage {
	return &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Shot{Shot: ShotToProto(netcode.Shot(s))}}
}

func (k Kill) serverEnvelope() *tankv1.ServerMessage {
	return &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Kill{Kill: KillToProto(netcode.Kill(k))}}
}

func (p Pong) serverEnvelope() *tankv1.ServerMessage {
	return &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Pong{Pong: &tankv1.Pong{
		ClientTimeUs: p.ClientTimeUs, ServerTick: p.ServerTick}}}
}

func (c RulesChanged) serverEnvelope() *tankv1.ServerMessage {
	return &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_RulesChanged{RulesChanged: RulesChangedToProto(c)}}
}

func (d Disconnect) serverEnvelope() *tankv1.ServerMessage {
	return &tankv1.ServerMessage{Kind: &tankv1.ServerMessage_Disconnect{Disconnect: &tankv1.Disconnect{
		Code: tankv1.DisconnectCode(d.Code), Reason: d.Reason}}}
}

// SnapshotFromProto returns what snapshot m says, after checking that every tank it carries
// whole is of its tick and of a player other than 0 (ReceiveChunk checks a chunk's place
// too).
func SnapshotFromProto(m *tankv1.Snapshot) (*Snapshot, error) {
	s := &Snapshot{
		Header: Header{Tick: m.GetServerTick(), Left: m.GetLeftView()},
		Index:  m.GetChunkIndex(), Count: m.GetChunkCount(),
		Baseline: m.GetBaselineTick(), Unchanged: m.GetUnchanged(), Moved: m.GetMoved(),
	}
	if ps := m.GetPlayers(); len(ps) > 0 {
		s.Tanks = make([]Tank, len(ps))
		for i, p := range ps {
			switch {
			case p.GetTick() != s.Tick:
				return nil, errStateTick
			case p.GetPlayerId() == 0:
				return nil, errStatePlayerID
			}
			s.Tanks[i] = TankFromProto(p)
		}
	}
	return s, nil
}

// SnapshotToProto returns the wire form of s.
func SnapshotToProto(s *Snapshot) *tankv1.Snapshot {
	m := &tankv1.Snapshot{ServerTick: s.Tick, ChunkIndex: s.Index, ChunkCount: s.Count, LeftView: s.Left,
		BaselineTick: s.Baseline, Unchanged: s.Unchanged, Moved: s.Moved}
	if len(s.Tanks) > 0 {
		m.Players = make([]*tankv1.PlayerState, len(s.Tanks))
		for i, t := range s.Tanks {
			m.Players[i] = new(tankv1.PlayerState)
			t.Fill(m.Players[i], s.Tick)
		}
	}
	return m
}

// RosterFromProto returns what a RosterUpdate says.
func RosterFromProto(m *tankv1.RosterUpdate) Roster {
	var r Roster
	for _, j := range m.GetJoined() {
		r.Joined = append(r.Joined, Player{ID: j.GetPlayerId(), Name: j.GetName()})
	}
	for _, l := range m.GetLeft() {
		r.Left = append(r.Left, Departure{ID: l.GetPlayerId(), Reason: l.GetReason()})
	}
	return r
}

// RosterToProto returns the wire form of r.
func RosterToProto(r Roster) *tankv1.RosterUpdate {
	m := new(tankv1.RosterUpdate)
	for _, j := range r.Joined {
		m.Joined = append(m.Joined, &tankv1.PlayerJoined{PlayerId: j.ID, Name: j.Name})
	}
	for _, l := range r.Left {
		m.Left = append(m.Left, &tankv1.PlayerLeft{PlayerId: l.ID, Reason: l.Reason})
	}
	return m
}

// FromServer is one message from the server's stream on its way to a ServerMessage: hand Target to
// the transport's receive (transport.Conn.Recv), then Decode what arrived. Its zero value is
// ready, and it may be reused: a decoded ServerMessage shares nothing with the next receive.
type FromServer struct {
	m tankv1.ServerMessage
}

// Target is the protobuf message for the transport to decode the frame into.
func (in *FromServer) Target() proto.Message { return &in.m }

// Decode returns what the received frame says (ServerMessageFromProto).
func (in *FromServer) Decode() (ServerMessage, error) { return ServerMessageFromProto(&in.m) }
