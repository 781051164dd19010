/* An object for the host, not the LANai: a firmware folder listing it must
 * be refused at the start of a run, in one line naming the file. */
int host_object_function(int x) { return x + 1; }
