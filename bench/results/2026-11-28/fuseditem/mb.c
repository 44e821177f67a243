#include <kobalt/kobalt.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(int argc,char**argv){
  int n=atoi(argv[1]); long batch=atol(argv[2]); int reps=atoi(argv[3]);
  long nn=n*n;
  double *X=malloc(8*nn*batch),*Y=malloc(8*nn*batch),*A=malloc(8*nn*batch),*B=malloc(8*n*batch);
  int *ip=malloc(4*n*batch),*info=malloc(4*batch);
  srand(1);
  for(long i=0;i<nn*batch;i++){X[i]=rand()/(double)RAND_MAX;Y[i]=rand()/(double)RAND_MAX;}
  for(long b=0;b<batch;b++) for(int i=0;i<n;i++) Y[b*nn+i*n+i]+=n;
  double best=1e9;
  for(int r=0;r<reps;r++){
    for(long i=0;i<n*batch;i++)B[i]=1;
    double t=now();
    kobalt_dgemm_lu_trsv_strided(KOBALT_COL_MAJOR,KOBALT_NO_TRANS,KOBALT_NO_TRANS,n,n,1,1.0,X,n,nn,Y,n,nn,0.0,A,n,nn,ip,n,B,n,n,info,batch);
    t=now()-t; if(t<best)best=t;
  }
  printf("n=%d us/item %.4f cycles@2.6 %.0f\n",n,best/batch*1e6,best/batch*2.6e9);
  return 0;
}
