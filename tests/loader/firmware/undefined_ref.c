// References a function that no object defines.

extern int missing_function(int);

int use_missing(int v) { return missing_function(v) + 1; }
