#include <ccrc/ccrc.hpp>
int main() { ccrc::profile p; return (int)ccrc::statistics(p.tree()).nodes; }
