go
