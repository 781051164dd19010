/* Firmware that cannot be linked: main calls a function that neither this
 * object nor the runtime defines, so the CLI must report it by name. */

extern int cli_test_missing_hook(int);

int main(void) { return cli_test_missing_hook(7); }
