// per-config hash of getrf / gemv outputs; mode top|nested
#include <kobalt/kobalt.h>
#include <omp.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <random>
static uint64_t fnv(uint64_t h, const void *p, size_t n){const unsigned char*c=(const unsigned char*)p;for(size_t i=0;i<n;++i)h=(h^c[i])*0x100000001b3ull;return h;}
struct R { uint64_t h; };
template<class T> uint64_t one(uint64_t seed, int fam){
  std::mt19937_64 r(seed);
  kobalt_layout L = (r()&1)?KOBALT_COL_MAJOR:KOBALT_ROW_MAJOR;
  int n = 1 + r()%72, m = 1 + r()%72; int batch = 1 + r()%8;
  uint64_t h=1469598103934665603ull;
  if (fam==0){ // getrf square/rect
    int ld = L==KOBALT_COL_MAJOR? m : n; int64_t item=(int64_t)m*n; int mn=m<n?m:n;
    std::vector<T> A(item*batch); for(auto&x:A) x=T((r()%2000001)/1e6-1.0);
    std::vector<int> ipiv(mn*batch), info(batch);
    int st;
    if constexpr(sizeof(T)==8) st=kobalt_dgetrf_strided(L,m,n,A.data(),ld,item,ipiv.data(),mn,info.data(),batch);
    else st=kobalt_sgetrf_strided(L,m,n,A.data(),ld,item,ipiv.data(),mn,info.data(),batch);
    h=fnv(fnv(h,A.data(),A.size()*sizeof(T)),ipiv.data(),ipiv.size()*4); h=fnv(h,&st,4);
  } else { // gemv
    kobalt_op t = (r()&1)?KOBALT_NO_TRANS:KOBALT_TRANS;
    int ld = L==KOBALT_COL_MAJOR? m : n; int64_t item=(int64_t)m*n;
    int xl = t==KOBALT_NO_TRANS? n:m, yl = t==KOBALT_NO_TRANS? m:n;
    std::vector<T> A(item*batch), x(xl*batch), y(yl*batch);
    for(auto&v:A) v=T((r()%2000001)/1e6-1.0); for(auto&v:x) v=T((r()%2000001)/1e6-1.0); for(auto&v:y) v=T((r()%2000001)/1e6-1.0);
    int st;
    if constexpr(sizeof(T)==8) st=kobalt_dgemv_strided(L,t,m,n,1.5,A.data(),ld,item,x.data(),1,xl,0.5,y.data(),1,yl,batch);
    else st=kobalt_sgemv_strided(L,t,m,n,1.5f,A.data(),ld,item,x.data(),1,xl,0.5f,y.data(),1,yl,batch);
    h=fnv(h,y.data(),y.size()*sizeof(T)); h=fnv(h,&st,4);
  }
  return h;
}
int main(int argc,char**argv){
  int N=atoi(argv[1]); bool nested=!strcmp(argv[2],"nested"); int fam=atoi(argv[3]);
  std::vector<uint64_t> out(N*2);
  auto work=[&](int i){ out[2*i]=one<double>(1000+i,fam); out[2*i+1]=one<float>(1000+i,fam); };
  if(nested){
    #pragma omp parallel num_threads(4)
    { int t=omp_get_thread_num(); for(int i=t;i<N;i+=4) work(i); }
  } else for(int i=0;i<N;++i) work(i);
  for(int i=0;i<N;++i) printf("%d %016llx %016llx\n",i,(unsigned long long)out[2*i],(unsigned long long)out[2*i+1]);
}
