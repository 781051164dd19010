// A variant object that defines nothing the base does: it adds a part.

int gamma_feature(int x) { return x - 1; }
