int lib_work(int n);
int lib_dump(void);
