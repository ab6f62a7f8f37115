; ModuleID = 'relu2x1.tess'
source_filename = "relu2x1.tess"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; Function Attrs: nounwind
define ptx_kernel void @relu2x1(ptr addrspace(1) noalias readonly %x, ptr addrspace(1) noalias %o, i32 %N) local_unnamed_addr #0 {
entry:
  %0 = tail call range(i32 0, 128) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %1 = shl nuw nsw i32 %0, 1
  %2 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %3 = shl i32 %2, 8
  %4 = sext i32 %3 to i64
  %5 = sub i32 %N, %3
  %6 = zext nneg i32 %1 to i64
  %7 = or disjoint i64 %4, %6
  %8 = getelementptr float, ptr addrspace(1) %x, i64 %7
  %9 = getelementptr float, ptr addrspace(1) %x, i64 %4
  %10 = ptrtoint ptr addrspace(1) %9 to i64
  %11 = and i64 %10, 7
  %12 = icmp eq i64 %11, 0
  %13 = or disjoint i32 %1, 1
  %14 = icmp slt i32 %1, %5
  %15 = icmp slt i32 %13, %5
  %16 = and i1 %12, %15
  br i1 %16, label %ld.tile, label %ld.edge

ld.tile:                                          ; preds = %entry
  %17 = load float, ptr addrspace(1) %8, align 8
  %18 = getelementptr inbounds nuw i8, ptr addrspace(1) %8, i64 4
  %19 = load float, ptr addrspace(1) %18, align 4
  br label %ld.tile.done

ld.edge:                                          ; preds = %entry
  %20 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %14, i32 0) #3
  %21 = bitcast i32 %20 to float
  %22 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %15, i32 0) #3
  %23 = bitcast i32 %22 to float
  br label %ld.tile.done

ld.tile.done:                                     ; preds = %ld.edge, %ld.tile
  %24 = phi float [ %17, %ld.tile ], [ %21, %ld.edge ]
  %25 = phi float [ %19, %ld.tile ], [ %23, %ld.edge ]
  %26 = fmul contract float %24, 2.000000e+00
  %27 = fmul contract float %25, 2.000000e+00
  %28 = fadd contract float %26, 1.000000e+00
  %29 = fadd contract float %27, 1.000000e+00
  %30 = tail call float @llvm.maximum.f32(float %28, float 0.000000e+00)
  %31 = tail call float @llvm.maximum.f32(float %29, float 0.000000e+00)
  %32 = getelementptr float, ptr addrspace(1) %o, i64 %7
  %33 = getelementptr float, ptr addrspace(1) %o, i64 %4
  %34 = ptrtoint ptr addrspace(1) %33 to i64
  %35 = and i64 %34, 7
  %36 = icmp eq i64 %35, 0
  %37 = and i1 %15, %36
  br i1 %37, label %st.tile, label %st.edge

st.tile:                                          ; preds = %ld.tile.done
  %38 = insertelement <2 x float> poison, float %30, i64 0
  %39 = insertelement <2 x float> %38, float %31, i64 1
  store <2 x float> %39, ptr addrspace(1) %32, align 8
  br label %st.tile.done

st.edge:                                          ; preds = %ld.tile.done
  %40 = bitcast float %30 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+0], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %32, i32 %40, i1 %14) #3
  %41 = bitcast float %31 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+4], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %32, i32 %41, i1 %15) #3
  br label %st.tile.done

st.tile.done:                                     ; preds = %st.edge, %st.tile
  ret void
}

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 1024) i32 @llvm.nvvm.read.ptx.sreg.tid.x() #1

; Function Attrs: mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none)
declare noundef range(i32 0, 2147483647) i32 @llvm.nvvm.read.ptx.sreg.ctaid.x() #1

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.maximum.f32(float, float) #2

attributes #0 = { nounwind "nvvm.maxntid"="128,1,1" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { nounwind }
