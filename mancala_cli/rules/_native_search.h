static void search_init(void) {}
#define SEARCH_METHODS
