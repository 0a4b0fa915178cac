module displaycheck

go 1.24.0
