// peak_memory FILE COMMAND: runs `/bin/sh -c COMMAND`, writes its peak resident memory in KB
// to FILE, and exits with its status (128 + the signal if one killed it).
//
// The tests cannot measure a child they fork themselves: a forked child's pages are the test
// process's until it execs, and Linux keeps that high-water mark across exec, so a test
// holding 60 MB of input measured 60 MB for a command that needs 6 MB. This program is small
// when it forks, so what it measures is the command's own.
#include <cstdio>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fputs("usage: peak_memory FILE COMMAND\n", stderr);
    return 2;
  }
  pid_t child = fork();
  if (child == 0) {
    execl("/bin/sh", "sh", "-c", argv[2], static_cast<char*>(nullptr));
    _exit(127);
  }
  int raw = 0;
  rusage usage{};
  if (child < 0 || wait4(child, &raw, 0, &usage) != child) return 126;
  if (std::FILE* f = std::fopen(argv[1], "w")) {
    std::fprintf(f, "%ld\n", usage.ru_maxrss);
    std::fclose(f);
  }
  return WIFEXITED(raw) ? WEXITSTATUS(raw) : 128 + WTERMSIG(raw);
}
