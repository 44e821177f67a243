#include <kobalt/kobalt.h>
#include <omp.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <random>
int main(int argc,char**argv){
  int n=atoi(argv[1]), batch=atoi(argv[2]); bool row=argc>3&&!strcmp(argv[3],"row");
  std::mt19937_64 r(42);
  std::vector<double> A((size_t)n*n*batch); for(auto&x:A) x=(r()%2000001)/1e6-1.0;
  std::vector<int> ipiv(n*batch), info(batch);
  kobalt_dgetrf_strided(row?KOBALT_ROW_MAJOR:KOBALT_COL_MAJOR,n,n,A.data(),n,(kobalt_int)n*n,ipiv.data(),n,info.data(),batch);
  for(int b=0;b<batch;++b){ unsigned long long h=0; for(int i=0;i<n*n;++i){unsigned long long u; memcpy(&u,&A[(size_t)b*n*n+i],8); h=h*31+u;} printf("item %d %016llx piv",b,h); for(int i=0;i<n;++i) printf(" %d",ipiv[b*n+i]); printf("\n"); }
}
