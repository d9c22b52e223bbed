/* A test agent for the apdp-agent/1 protocol, written for apdp's tests: it abstains from every
   auction, so its plan is one empty list per vehicle. */
#include <stdio.h>
#include <string.h>

int main(void) {
    static char line[1 << 24];
    while (fgets(line, sizeof line, stdin)) {
        if (strstr(line, "\"type\":\"bid\"")) {
            puts("{\"bid\":null}");
        } else if (strstr(line, "\"type\":\"plan\"")) {
            /* one empty plan per vehicle: count the vehicles' "home" keys before "tasks" */
            char *tasks = strstr(line, "\"tasks\":");
            int vehicles = 0;
            for (char *p = line; (p = strstr(p, "\"home\":")) && (!tasks || p < tasks); p++) vehicles++;
            fputs("{\"plans\":[", stdout);
            for (int v = 0; v < vehicles; v++) fputs(v ? ",[]" : "[]", stdout);
            puts("]}");
        } else {
            puts("{\"ok\":true}");
        }
        fflush(stdout);
    }
    return 0;
}
