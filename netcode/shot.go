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
