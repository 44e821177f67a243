#include <kobalt/kobalt.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
static double now(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int cmp(const void*a,const void*b){double x=*(double*)a,y=*(double*)b;return x<y?-1:x>y;}
int main(int argc,char**argv){
  int m=atoi(argv[1]), n=atoi(argv[2]); long batch=atol(argv[3]); int reps=atoi(argv[4]);
  float *A=malloc(sizeof(float)*m*n*batch),*x=malloc(sizeof(float)*n*batch),*y=malloc(sizeof(float)*m*batch);
  for(long i=0;i<(long)m*n*batch;i++)A[i]=rand()/(float)RAND_MAX;
  for(long i=0;i<(long)n*batch;i++)x[i]=rand()/(float)RAND_MAX;
  for(long i=0;i<(long)m*batch;i++)y[i]=0;
  double t[64];
  for(int r=0;r<reps;r++){double t0=now();
    for(int k=0;k<20;k++) kobalt_sgemv_strided(KOBALT_COL_MAJOR,KOBALT_NO_TRANS,m,n,1.f,A,m,(long)m*n,x,1,n,0.f,y,1,m,batch);
    t[r]=(now()-t0)/20;}
  qsort(t,reps,sizeof(double),cmp);
  printf("m=%d n=%d batch=%ld median %.3f us/call  %.2f GF/s  (min %.3f max %.3f)\n",m,n,batch,t[reps/2]*1e6,2.0*m*n*batch/t[reps/2]*1e-9,t[0]*1e6,t[reps-1]*1e6);
  return 0;}
