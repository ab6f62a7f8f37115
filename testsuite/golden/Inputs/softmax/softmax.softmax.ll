; ModuleID = 'softmax.tess'
source_filename = "softmax.tess"
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tessera_smem = external local_unnamed_addr addrspace(3) global [0 x i8], align 16

; Function Attrs: nounwind
define ptx_kernel void @softmax_BN1024(ptr addrspace(1) noalias readonly %x, ptr addrspace(1) noalias %y, i32 %M, i32 %N) local_unnamed_addr #0 {
entry:
  %0 = tail call range(i32 0, 128) i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %warp = lshr i32 %0, 5
  %1 = sext i32 %N to i64
  %2 = shl nuw nsw i32 %0, 2
  %3 = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %4 = zext nneg i32 %3 to i64
  %5 = mul nsw i64 %1, %4
  %6 = getelementptr float, ptr addrspace(1) %x, i64 %5
  %7 = ptrtoint ptr addrspace(1) %6 to i64
  %8 = and i64 %7, 15
  %9 = icmp eq i64 %8, 0
  %10 = or disjoint i32 %2, 515
  %11 = icmp slt i32 %2, %N
  %12 = icmp slt i32 %10, %N
  %13 = and i1 %12, %9
  %14 = zext nneg i32 %2 to i64
  %15 = getelementptr float, ptr addrspace(1) %6, i64 %14
  br i1 %13, label %ld.tile, label %ld.edge

ld.tile:                                          ; preds = %entry
  %16 = load float, ptr addrspace(1) %15, align 16
  %17 = getelementptr inbounds nuw i8, ptr addrspace(1) %15, i64 4
  %18 = load float, ptr addrspace(1) %17, align 4
  %19 = getelementptr inbounds nuw i8, ptr addrspace(1) %15, i64 8
  %20 = load float, ptr addrspace(1) %19, align 8
  %21 = getelementptr inbounds nuw i8, ptr addrspace(1) %15, i64 12
  %22 = load float, ptr addrspace(1) %21, align 4
  %23 = getelementptr i8, ptr addrspace(1) %15, i64 2048
  %24 = load float, ptr addrspace(1) %23, align 16
  %25 = getelementptr i8, ptr addrspace(1) %15, i64 2052
  %26 = load float, ptr addrspace(1) %25, align 4
  %27 = getelementptr i8, ptr addrspace(1) %15, i64 2056
  %28 = load float, ptr addrspace(1) %27, align 8
  %29 = getelementptr i8, ptr addrspace(1) %15, i64 2060
  %30 = load float, ptr addrspace(1) %29, align 4
  br label %ld.tile.done

ld.edge:                                          ; preds = %entry
  %31 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %15, i1 %11, i32 -8388608) #6
  %32 = bitcast i32 %31 to float
  %33 = or disjoint i32 %2, 1
  %34 = icmp slt i32 %33, %N
  %35 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %15, i1 %34, i32 -8388608) #6
  %36 = bitcast i32 %35 to float
  %37 = or disjoint i32 %2, 2
  %38 = icmp slt i32 %37, %N
  %39 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %15, i1 %38, i32 -8388608) #6
  %40 = bitcast i32 %39 to float
  %41 = or disjoint i32 %2, 3
  %42 = icmp slt i32 %41, %N
  %43 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %15, i1 %42, i32 -8388608) #6
  %44 = bitcast i32 %43 to float
  %45 = or disjoint i32 %2, 512
  %46 = zext nneg i32 %45 to i64
  %47 = getelementptr float, ptr addrspace(1) %6, i64 %46
  %48 = icmp slt i32 %45, %N
  %49 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %47, i1 %48, i32 -8388608) #6
  %50 = bitcast i32 %49 to float
  %51 = or disjoint i32 %2, 513
  %52 = icmp slt i32 %51, %N
  %53 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %47, i1 %52, i32 -8388608) #6
  %54 = bitcast i32 %53 to float
  %55 = or disjoint i32 %2, 514
  %56 = icmp slt i32 %55, %N
  %57 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %47, i1 %56, i32 -8388608) #6
  %58 = bitcast i32 %57 to float
  %59 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %47, i1 %12, i32 -8388608) #6
  %60 = bitcast i32 %59 to float
  br label %ld.tile.done

ld.tile.done:                                     ; preds = %ld.edge, %ld.tile
  %61 = phi float [ %16, %ld.tile ], [ %32, %ld.edge ]
  %62 = phi float [ %18, %ld.tile ], [ %36, %ld.edge ]
  %63 = phi float [ %20, %ld.tile ], [ %40, %ld.edge ]
  %64 = phi float [ %22, %ld.tile ], [ %44, %ld.edge ]
  %65 = phi float [ %24, %ld.tile ], [ %50, %ld.edge ]
  %66 = phi float [ %26, %ld.tile ], [ %54, %ld.edge ]
  %67 = phi float [ %28, %ld.tile ], [ %58, %ld.edge ]
  %68 = phi float [ %30, %ld.tile ], [ %60, %ld.edge ]
  %69 = tail call float @llvm.maximum.f32(float %61, float %62)
  %70 = tail call float @llvm.maximum.f32(float %69, float %63)
  %71 = tail call float @llvm.maximum.f32(float %70, float %64)
  %72 = tail call float @llvm.maximum.f32(float %71, float %65)
  %73 = tail call float @llvm.maximum.f32(float %72, float %66)
  %74 = tail call float @llvm.maximum.f32(float %73, float %67)
  %75 = tail call float @llvm.maximum.f32(float %74, float %68)
  %76 = bitcast float %75 to i32
  %77 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %76, i32 1, i32 31)
  %78 = bitcast i32 %77 to float
  %79 = tail call float @llvm.maximum.f32(float %75, float %78)
  %80 = bitcast float %79 to i32
  %81 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %80, i32 2, i32 31)
  %82 = bitcast i32 %81 to float
  %83 = tail call float @llvm.maximum.f32(float %79, float %82)
  %84 = bitcast float %83 to i32
  %85 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %84, i32 4, i32 31)
  %86 = bitcast i32 %85 to float
  %87 = tail call float @llvm.maximum.f32(float %83, float %86)
  %88 = bitcast float %87 to i32
  %89 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %88, i32 8, i32 31)
  %90 = bitcast i32 %89 to float
  %91 = tail call float @llvm.maximum.f32(float %87, float %90)
  %92 = bitcast float %91 to i32
  %93 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %92, i32 16, i32 31)
  %94 = bitcast i32 %93 to float
  %95 = tail call float @llvm.maximum.f32(float %91, float %94)
  %96 = zext nneg i32 %warp to i64
  %97 = getelementptr float, ptr addrspace(3) @tessera_smem, i64 %96
  store float %95, ptr addrspace(3) %97, align 4
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %98 = load float, ptr addrspace(3) @tessera_smem, align 16
  %99 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 4), align 4
  %100 = tail call float @llvm.maximum.f32(float %98, float %99)
  %101 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 8), align 8
  %102 = tail call float @llvm.maximum.f32(float %100, float %101)
  %103 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 12), align 4
  %104 = tail call float @llvm.maximum.f32(float %102, float %103)
  %105 = fsub contract float %61, %104
  %106 = fsub contract float %62, %104
  %107 = fsub contract float %63, %104
  %108 = fsub contract float %64, %104
  %109 = fsub contract float %65, %104
  %110 = fsub contract float %66, %104
  %111 = fsub contract float %67, %104
  %112 = fsub contract float %68, %104
  %113 = fmul float %105, 0x3FF7154760000000
  %114 = fneg float %113
  %115 = tail call float @llvm.fma.f32(float %105, float 0x3FF7154760000000, float %114)
  %116 = tail call float @llvm.fma.f32(float %105, float 0x3E54AE0C00000000, float %115)
  %117 = tail call float @llvm.nvvm.ex2.approx.f32(float %113)
  %118 = fmul float %116, 0x3FE62E4300000000
  %119 = tail call float @llvm.fma.f32(float %117, float %118, float %117)
  %120 = fcmp olt float %113, 1.280000e+02
  %121 = fcmp ogt float %113, -1.500000e+02
  %122 = and i1 %120, %121
  %123 = select i1 %122, float %119, float %117
  %124 = fmul float %106, 0x3FF7154760000000
  %125 = fneg float %124
  %126 = tail call float @llvm.fma.f32(float %106, float 0x3FF7154760000000, float %125)
  %127 = tail call float @llvm.fma.f32(float %106, float 0x3E54AE0C00000000, float %126)
  %128 = tail call float @llvm.nvvm.ex2.approx.f32(float %124)
  %129 = fmul float %127, 0x3FE62E4300000000
  %130 = tail call float @llvm.fma.f32(float %128, float %129, float %128)
  %131 = fcmp olt float %124, 1.280000e+02
  %132 = fcmp ogt float %124, -1.500000e+02
  %133 = and i1 %131, %132
  %134 = select i1 %133, float %130, float %128
  %135 = fmul float %107, 0x3FF7154760000000
  %136 = fneg float %135
  %137 = tail call float @llvm.fma.f32(float %107, float 0x3FF7154760000000, float %136)
  %138 = tail call float @llvm.fma.f32(float %107, float 0x3E54AE0C00000000, float %137)
  %139 = tail call float @llvm.nvvm.ex2.approx.f32(float %135)
  %140 = fmul float %138, 0x3FE62E4300000000
  %141 = tail call float @llvm.fma.f32(float %139, float %140, float %139)
  %142 = fcmp olt float %135, 1.280000e+02
  %143 = fcmp ogt float %135, -1.500000e+02
  %144 = and i1 %142, %143
  %145 = select i1 %144, float %141, float %139
  %146 = fmul float %108, 0x3FF7154760000000
  %147 = fneg float %146
  %148 = tail call float @llvm.fma.f32(float %108, float 0x3FF7154760000000, float %147)
  %149 = tail call float @llvm.fma.f32(float %108, float 0x3E54AE0C00000000, float %148)
  %150 = tail call float @llvm.nvvm.ex2.approx.f32(float %146)
  %151 = fmul float %149, 0x3FE62E4300000000
  %152 = tail call float @llvm.fma.f32(float %150, float %151, float %150)
  %153 = fcmp olt float %146, 1.280000e+02
  %154 = fcmp ogt float %146, -1.500000e+02
  %155 = and i1 %153, %154
  %156 = select i1 %155, float %152, float %150
  %157 = fmul float %109, 0x3FF7154760000000
  %158 = fneg float %157
  %159 = tail call float @llvm.fma.f32(float %109, float 0x3FF7154760000000, float %158)
  %160 = tail call float @llvm.fma.f32(float %109, float 0x3E54AE0C00000000, float %159)
  %161 = tail call float @llvm.nvvm.ex2.approx.f32(float %157)
  %162 = fmul float %160, 0x3FE62E4300000000
  %163 = tail call float @llvm.fma.f32(float %161, float %162, float %161)
  %164 = fcmp olt float %157, 1.280000e+02
  %165 = fcmp ogt float %157, -1.500000e+02
  %166 = and i1 %164, %165
  %167 = select i1 %166, float %163, float %161
  %168 = fmul float %110, 0x3FF7154760000000
  %169 = fneg float %168
  %170 = tail call float @llvm.fma.f32(float %110, float 0x3FF7154760000000, float %169)
  %171 = tail call float @llvm.fma.f32(float %110, float 0x3E54AE0C00000000, float %170)
  %172 = tail call float @llvm.nvvm.ex2.approx.f32(float %168)
  %173 = fmul float %171, 0x3FE62E4300000000
  %174 = tail call float @llvm.fma.f32(float %172, float %173, float %172)
  %175 = fcmp olt float %168, 1.280000e+02
  %176 = fcmp ogt float %168, -1.500000e+02
  %177 = and i1 %175, %176
  %178 = select i1 %177, float %174, float %172
  %179 = fmul float %111, 0x3FF7154760000000
  %180 = fneg float %179
  %181 = tail call float @llvm.fma.f32(float %111, float 0x3FF7154760000000, float %180)
  %182 = tail call float @llvm.fma.f32(float %111, float 0x3E54AE0C00000000, float %181)
  %183 = tail call float @llvm.nvvm.ex2.approx.f32(float %179)
  %184 = fmul float %182, 0x3FE62E4300000000
  %185 = tail call float @llvm.fma.f32(float %183, float %184, float %183)
  %186 = fcmp olt float %179, 1.280000e+02
  %187 = fcmp ogt float %179, -1.500000e+02
  %188 = and i1 %186, %187
  %189 = select i1 %188, float %185, float %183
  %190 = fmul float %112, 0x3FF7154760000000
  %191 = fneg float %190
  %192 = tail call float @llvm.fma.f32(float %112, float 0x3FF7154760000000, float %191)
  %193 = tail call float @llvm.fma.f32(float %112, float 0x3E54AE0C00000000, float %192)
  %194 = tail call float @llvm.nvvm.ex2.approx.f32(float %190)
  %195 = fmul float %193, 0x3FE62E4300000000
  %196 = tail call float @llvm.fma.f32(float %194, float %195, float %194)
  %197 = fcmp olt float %190, 1.280000e+02
  %198 = fcmp ogt float %190, -1.500000e+02
  %199 = and i1 %197, %198
  %200 = select i1 %199, float %196, float %194
  %201 = fadd contract float %123, %134
  %202 = fadd contract float %145, %201
  %203 = fadd contract float %156, %202
  %204 = fadd contract float %167, %203
  %205 = fadd contract float %178, %204
  %206 = fadd contract float %189, %205
  %207 = fadd contract float %200, %206
  %208 = bitcast float %207 to i32
  %209 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %208, i32 1, i32 31)
  %210 = bitcast i32 %209 to float
  %211 = fadd contract float %207, %210
  %212 = bitcast float %211 to i32
  %213 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %212, i32 2, i32 31)
  %214 = bitcast i32 %213 to float
  %215 = fadd contract float %211, %214
  %216 = bitcast float %215 to i32
  %217 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %216, i32 4, i32 31)
  %218 = bitcast i32 %217 to float
  %219 = fadd contract float %215, %218
  %220 = bitcast float %219 to i32
  %221 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %220, i32 8, i32 31)
  %222 = bitcast i32 %221 to float
  %223 = fadd contract float %219, %222
  %224 = bitcast float %223 to i32
  %225 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %224, i32 16, i32 31)
  %226 = bitcast i32 %225 to float
  %227 = fadd contract float %223, %226
  %228 = getelementptr float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 16), i64 %96
  store float %227, ptr addrspace(3) %228, align 4
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %229 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 16), align 16
  %230 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 20), align 4
  %231 = fadd contract float %229, %230
  %232 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 24), align 8
  %233 = fadd contract float %231, %232
  %234 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 28), align 4
  %235 = fadd contract float %233, %234
  %236 = fdiv float 1.000000e+00, %235
  %237 = fmul contract float %123, %236
  %238 = fmul contract float %134, %236
  %239 = fmul contract float %145, %236
  %240 = fmul contract float %156, %236
  %241 = fmul contract float %167, %236
  %242 = fmul contract float %178, %236
  %243 = fmul contract float %189, %236
  %244 = fmul contract float %200, %236
  %245 = getelementptr float, ptr addrspace(1) %y, i64 %5
  %246 = ptrtoint ptr addrspace(1) %245 to i64
  %247 = and i64 %246, 15
  %248 = icmp eq i64 %247, 0
  %249 = and i1 %12, %248
  %250 = zext nneg i32 %2 to i64
  %251 = getelementptr float, ptr addrspace(1) %245, i64 %250
  br i1 %249, label %st.tile, label %st.edge

st.tile:                                          ; preds = %ld.tile.done
  %252 = insertelement <4 x float> poison, float %237, i64 0
  %253 = insertelement <4 x float> %252, float %238, i64 1
  %254 = insertelement <4 x float> %253, float %239, i64 2
  %255 = insertelement <4 x float> %254, float %240, i64 3
  store <4 x float> %255, ptr addrspace(1) %251, align 16
  %256 = getelementptr i8, ptr addrspace(1) %251, i64 2048
  %257 = insertelement <4 x float> poison, float %241, i64 0
  %258 = insertelement <4 x float> %257, float %242, i64 1
  %259 = insertelement <4 x float> %258, float %243, i64 2
  %260 = insertelement <4 x float> %259, float %244, i64 3
  store <4 x float> %260, ptr addrspace(1) %256, align 16
  br label %st.tile.done

st.edge:                                          ; preds = %ld.tile.done
  %261 = bitcast float %237 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+0], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %251, i32 %261, i1 %11) #6
  %262 = or disjoint i32 %2, 1
  %263 = icmp slt i32 %262, %N
  %264 = bitcast float %238 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+4], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %251, i32 %264, i1 %263) #6
  %265 = or disjoint i32 %2, 2
  %266 = icmp slt i32 %265, %N
  %267 = bitcast float %239 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+8], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %251, i32 %267, i1 %266) #6
  %268 = or disjoint i32 %2, 3
  %269 = icmp slt i32 %268, %N
  %270 = bitcast float %240 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+12], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %251, i32 %270, i1 %269) #6
  %271 = or disjoint i32 %2, 512
  %272 = zext nneg i32 %271 to i64
  %273 = getelementptr float, ptr addrspace(1) %245, i64 %272
  %274 = icmp slt i32 %271, %N
  %275 = bitcast float %241 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+0], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %273, i32 %275, i1 %274) #6
  %276 = or disjoint i32 %2, 513
  %277 = icmp slt i32 %276, %N
  %278 = bitcast float %242 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+4], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %273, i32 %278, i1 %277) #6
  %279 = or disjoint i32 %2, 514
  %280 = icmp slt i32 %279, %N
  %281 = bitcast float %243 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+8], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %273, i32 %281, i1 %280) #6
  %282 = bitcast float %244 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+12], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %273, i32 %282, i1 %12) #6
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

; Function Attrs: convergent nocallback nounwind memory(inaccessiblemem: readwrite)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32) #3

; Function Attrs: convergent nocallback nounwind
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #4

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare float @llvm.fma.f32(float, float, float) #2

; Function Attrs: mustprogress nocallback nofree nosync nounwind willreturn memory(none)
declare float @llvm.nvvm.ex2.approx.f32(float) #5

attributes #0 = { nounwind "nvvm.maxntid"="128,1,1" }
attributes #1 = { mustprogress nocallback nofree nosync nounwind speculatable willreturn memory(none) }
attributes #2 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }
attributes #3 = { convergent nocallback nounwind memory(inaccessiblemem: readwrite) }
attributes #4 = { convergent nocallback nounwind }
attributes #5 = { mustprogress nocallback nofree nosync nounwind willreturn memory(none) }
attributes #6 = { nounwind }
