module nanograph

go 1.19
