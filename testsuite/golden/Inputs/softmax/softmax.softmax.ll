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
  %6 = zext nneg i32 %2 to i64
  %7 = add nsw i64 %5, %6
  %8 = getelementptr float, ptr addrspace(1) %x, i64 %7
  %9 = getelementptr float, ptr addrspace(1) %x, i64 %5
  %10 = ptrtoint ptr addrspace(1) %9 to i64
  %11 = and i64 %10, 15
  %12 = icmp eq i64 %11, 0
  %13 = or disjoint i32 %2, 515
  %14 = icmp slt i32 %2, %N
  %15 = icmp slt i32 %13, %N
  %16 = and i1 %15, %12
  br i1 %16, label %ld.tile, label %ld.edge

ld.tile:                                          ; preds = %entry
  %17 = load float, ptr addrspace(1) %8, align 16
  %18 = getelementptr inbounds nuw i8, ptr addrspace(1) %8, i64 4
  %19 = load float, ptr addrspace(1) %18, align 4
  %20 = getelementptr inbounds nuw i8, ptr addrspace(1) %8, i64 8
  %21 = load float, ptr addrspace(1) %20, align 8
  %22 = getelementptr inbounds nuw i8, ptr addrspace(1) %8, i64 12
  %23 = load float, ptr addrspace(1) %22, align 4
  %24 = getelementptr i8, ptr addrspace(1) %8, i64 2048
  %25 = load float, ptr addrspace(1) %24, align 16
  %26 = getelementptr i8, ptr addrspace(1) %8, i64 2052
  %27 = load float, ptr addrspace(1) %26, align 4
  %28 = getelementptr i8, ptr addrspace(1) %8, i64 2056
  %29 = load float, ptr addrspace(1) %28, align 8
  %30 = getelementptr i8, ptr addrspace(1) %8, i64 2060
  %31 = load float, ptr addrspace(1) %30, align 4
  br label %ld.tile.done

ld.edge:                                          ; preds = %entry
  %32 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+0];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %14, i32 -8388608) #6
  %33 = bitcast i32 %32 to float
  %34 = or disjoint i32 %2, 1
  %35 = icmp slt i32 %34, %N
  %36 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+4];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %35, i32 -8388608) #6
  %37 = bitcast i32 %36 to float
  %38 = or disjoint i32 %2, 2
  %39 = icmp slt i32 %38, %N
  %40 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+8];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %39, i32 -8388608) #6
  %41 = bitcast i32 %40 to float
  %42 = or disjoint i32 %2, 3
  %43 = icmp slt i32 %42, %N
  %44 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+12];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %43, i32 -8388608) #6
  %45 = bitcast i32 %44 to float
  %46 = or disjoint i32 %2, 512
  %47 = icmp slt i32 %46, %N
  %48 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+2048];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %47, i32 -8388608) #6
  %49 = bitcast i32 %48 to float
  %50 = or disjoint i32 %2, 513
  %51 = icmp slt i32 %50, %N
  %52 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+2052];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %51, i32 -8388608) #6
  %53 = bitcast i32 %52 to float
  %54 = or disjoint i32 %2, 514
  %55 = icmp slt i32 %54, %N
  %56 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+2056];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %55, i32 -8388608) #6
  %57 = bitcast i32 %56 to float
  %58 = tail call i32 asm sideeffect "mov.b32 $0, $3;\0A\09@$2 ld.global.nc.b32 $0, [$1+2060];", "=&r,l,b,r,~{memory}"(ptr addrspace(1) %8, i1 %15, i32 -8388608) #6
  %59 = bitcast i32 %58 to float
  br label %ld.tile.done

ld.tile.done:                                     ; preds = %ld.edge, %ld.tile
  %60 = phi float [ %17, %ld.tile ], [ %33, %ld.edge ]
  %61 = phi float [ %19, %ld.tile ], [ %37, %ld.edge ]
  %62 = phi float [ %21, %ld.tile ], [ %41, %ld.edge ]
  %63 = phi float [ %23, %ld.tile ], [ %45, %ld.edge ]
  %64 = phi float [ %25, %ld.tile ], [ %49, %ld.edge ]
  %65 = phi float [ %27, %ld.tile ], [ %53, %ld.edge ]
  %66 = phi float [ %29, %ld.tile ], [ %57, %ld.edge ]
  %67 = phi float [ %31, %ld.tile ], [ %59, %ld.edge ]
  %68 = tail call float @llvm.maximum.f32(float %60, float %61)
  %69 = tail call float @llvm.maximum.f32(float %68, float %62)
  %70 = tail call float @llvm.maximum.f32(float %69, float %63)
  %71 = tail call float @llvm.maximum.f32(float %70, float %64)
  %72 = tail call float @llvm.maximum.f32(float %71, float %65)
  %73 = tail call float @llvm.maximum.f32(float %72, float %66)
  %74 = tail call float @llvm.maximum.f32(float %73, float %67)
  %75 = bitcast float %74 to i32
  %76 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %75, i32 1, i32 31)
  %77 = bitcast i32 %76 to float
  %78 = tail call float @llvm.maximum.f32(float %74, float %77)
  %79 = bitcast float %78 to i32
  %80 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %79, i32 2, i32 31)
  %81 = bitcast i32 %80 to float
  %82 = tail call float @llvm.maximum.f32(float %78, float %81)
  %83 = bitcast float %82 to i32
  %84 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %83, i32 4, i32 31)
  %85 = bitcast i32 %84 to float
  %86 = tail call float @llvm.maximum.f32(float %82, float %85)
  %87 = bitcast float %86 to i32
  %88 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %87, i32 8, i32 31)
  %89 = bitcast i32 %88 to float
  %90 = tail call float @llvm.maximum.f32(float %86, float %89)
  %91 = bitcast float %90 to i32
  %92 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %91, i32 16, i32 31)
  %93 = bitcast i32 %92 to float
  %94 = tail call float @llvm.maximum.f32(float %90, float %93)
  %95 = zext nneg i32 %warp to i64
  %96 = getelementptr float, ptr addrspace(3) @tessera_smem, i64 %95
  store float %94, ptr addrspace(3) %96, align 4
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %97 = load float, ptr addrspace(3) @tessera_smem, align 16
  %98 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 4), align 4
  %99 = tail call float @llvm.maximum.f32(float %97, float %98)
  %100 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 8), align 8
  %101 = tail call float @llvm.maximum.f32(float %99, float %100)
  %102 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 12), align 4
  %103 = tail call float @llvm.maximum.f32(float %101, float %102)
  %104 = fsub contract float %60, %103
  %105 = fsub contract float %61, %103
  %106 = fsub contract float %62, %103
  %107 = fsub contract float %63, %103
  %108 = fsub contract float %64, %103
  %109 = fsub contract float %65, %103
  %110 = fsub contract float %66, %103
  %111 = fsub contract float %67, %103
  %112 = fmul float %104, 0x3FF7154760000000
  %113 = fneg float %112
  %114 = tail call float @llvm.fma.f32(float %104, float 0x3FF7154760000000, float %113)
  %115 = tail call float @llvm.fma.f32(float %104, float 0x3E54AE0C00000000, float %114)
  %116 = tail call float @llvm.nvvm.ex2.approx.f32(float %112)
  %117 = fmul float %115, 0x3FE62E4300000000
  %118 = tail call float @llvm.fma.f32(float %116, float %117, float %116)
  %119 = fcmp olt float %112, 1.280000e+02
  %120 = fcmp ogt float %112, -1.500000e+02
  %121 = and i1 %119, %120
  %122 = select i1 %121, float %118, float %116
  %123 = fmul float %105, 0x3FF7154760000000
  %124 = fneg float %123
  %125 = tail call float @llvm.fma.f32(float %105, float 0x3FF7154760000000, float %124)
  %126 = tail call float @llvm.fma.f32(float %105, float 0x3E54AE0C00000000, float %125)
  %127 = tail call float @llvm.nvvm.ex2.approx.f32(float %123)
  %128 = fmul float %126, 0x3FE62E4300000000
  %129 = tail call float @llvm.fma.f32(float %127, float %128, float %127)
  %130 = fcmp olt float %123, 1.280000e+02
  %131 = fcmp ogt float %123, -1.500000e+02
  %132 = and i1 %130, %131
  %133 = select i1 %132, float %129, float %127
  %134 = fmul float %106, 0x3FF7154760000000
  %135 = fneg float %134
  %136 = tail call float @llvm.fma.f32(float %106, float 0x3FF7154760000000, float %135)
  %137 = tail call float @llvm.fma.f32(float %106, float 0x3E54AE0C00000000, float %136)
  %138 = tail call float @llvm.nvvm.ex2.approx.f32(float %134)
  %139 = fmul float %137, 0x3FE62E4300000000
  %140 = tail call float @llvm.fma.f32(float %138, float %139, float %138)
  %141 = fcmp olt float %134, 1.280000e+02
  %142 = fcmp ogt float %134, -1.500000e+02
  %143 = and i1 %141, %142
  %144 = select i1 %143, float %140, float %138
  %145 = fmul float %107, 0x3FF7154760000000
  %146 = fneg float %145
  %147 = tail call float @llvm.fma.f32(float %107, float 0x3FF7154760000000, float %146)
  %148 = tail call float @llvm.fma.f32(float %107, float 0x3E54AE0C00000000, float %147)
  %149 = tail call float @llvm.nvvm.ex2.approx.f32(float %145)
  %150 = fmul float %148, 0x3FE62E4300000000
  %151 = tail call float @llvm.fma.f32(float %149, float %150, float %149)
  %152 = fcmp olt float %145, 1.280000e+02
  %153 = fcmp ogt float %145, -1.500000e+02
  %154 = and i1 %152, %153
  %155 = select i1 %154, float %151, float %149
  %156 = fmul float %108, 0x3FF7154760000000
  %157 = fneg float %156
  %158 = tail call float @llvm.fma.f32(float %108, float 0x3FF7154760000000, float %157)
  %159 = tail call float @llvm.fma.f32(float %108, float 0x3E54AE0C00000000, float %158)
  %160 = tail call float @llvm.nvvm.ex2.approx.f32(float %156)
  %161 = fmul float %159, 0x3FE62E4300000000
  %162 = tail call float @llvm.fma.f32(float %160, float %161, float %160)
  %163 = fcmp olt float %156, 1.280000e+02
  %164 = fcmp ogt float %156, -1.500000e+02
  %165 = and i1 %163, %164
  %166 = select i1 %165, float %162, float %160
  %167 = fmul float %109, 0x3FF7154760000000
  %168 = fneg float %167
  %169 = tail call float @llvm.fma.f32(float %109, float 0x3FF7154760000000, float %168)
  %170 = tail call float @llvm.fma.f32(float %109, float 0x3E54AE0C00000000, float %169)
  %171 = tail call float @llvm.nvvm.ex2.approx.f32(float %167)
  %172 = fmul float %170, 0x3FE62E4300000000
  %173 = tail call float @llvm.fma.f32(float %171, float %172, float %171)
  %174 = fcmp olt float %167, 1.280000e+02
  %175 = fcmp ogt float %167, -1.500000e+02
  %176 = and i1 %174, %175
  %177 = select i1 %176, float %173, float %171
  %178 = fmul float %110, 0x3FF7154760000000
  %179 = fneg float %178
  %180 = tail call float @llvm.fma.f32(float %110, float 0x3FF7154760000000, float %179)
  %181 = tail call float @llvm.fma.f32(float %110, float 0x3E54AE0C00000000, float %180)
  %182 = tail call float @llvm.nvvm.ex2.approx.f32(float %178)
  %183 = fmul float %181, 0x3FE62E4300000000
  %184 = tail call float @llvm.fma.f32(float %182, float %183, float %182)
  %185 = fcmp olt float %178, 1.280000e+02
  %186 = fcmp ogt float %178, -1.500000e+02
  %187 = and i1 %185, %186
  %188 = select i1 %187, float %184, float %182
  %189 = fmul float %111, 0x3FF7154760000000
  %190 = fneg float %189
  %191 = tail call float @llvm.fma.f32(float %111, float 0x3FF7154760000000, float %190)
  %192 = tail call float @llvm.fma.f32(float %111, float 0x3E54AE0C00000000, float %191)
  %193 = tail call float @llvm.nvvm.ex2.approx.f32(float %189)
  %194 = fmul float %192, 0x3FE62E4300000000
  %195 = tail call float @llvm.fma.f32(float %193, float %194, float %193)
  %196 = fcmp olt float %189, 1.280000e+02
  %197 = fcmp ogt float %189, -1.500000e+02
  %198 = and i1 %196, %197
  %199 = select i1 %198, float %195, float %193
  %200 = fadd contract float %122, %133
  %201 = fadd contract float %144, %200
  %202 = fadd contract float %155, %201
  %203 = fadd contract float %166, %202
  %204 = fadd contract float %177, %203
  %205 = fadd contract float %188, %204
  %206 = fadd contract float %199, %205
  %207 = bitcast float %206 to i32
  %208 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %207, i32 1, i32 31)
  %209 = bitcast i32 %208 to float
  %210 = fadd contract float %206, %209
  %211 = bitcast float %210 to i32
  %212 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %211, i32 2, i32 31)
  %213 = bitcast i32 %212 to float
  %214 = fadd contract float %210, %213
  %215 = bitcast float %214 to i32
  %216 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %215, i32 4, i32 31)
  %217 = bitcast i32 %216 to float
  %218 = fadd contract float %214, %217
  %219 = bitcast float %218 to i32
  %220 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %219, i32 8, i32 31)
  %221 = bitcast i32 %220 to float
  %222 = fadd contract float %218, %221
  %223 = bitcast float %222 to i32
  %224 = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %223, i32 16, i32 31)
  %225 = bitcast i32 %224 to float
  %226 = fadd contract float %222, %225
  %227 = getelementptr float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 16), i64 %95
  store float %226, ptr addrspace(3) %227, align 4
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %228 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 16), align 16
  %229 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 20), align 4
  %230 = fadd contract float %228, %229
  %231 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 24), align 8
  %232 = fadd contract float %230, %231
  %233 = load float, ptr addrspace(3) getelementptr (i8, ptr addrspace(3) @tessera_smem, i64 28), align 4
  %234 = fadd contract float %232, %233
  %235 = fdiv float 1.000000e+00, %234
  %236 = fmul contract float %122, %235
  %237 = fmul contract float %133, %235
  %238 = fmul contract float %144, %235
  %239 = fmul contract float %155, %235
  %240 = fmul contract float %166, %235
  %241 = fmul contract float %177, %235
  %242 = fmul contract float %188, %235
  %243 = fmul contract float %199, %235
  %244 = getelementptr float, ptr addrspace(1) %y, i64 %7
  %245 = getelementptr float, ptr addrspace(1) %y, i64 %5
  %246 = ptrtoint ptr addrspace(1) %245 to i64
  %247 = and i64 %246, 15
  %248 = icmp eq i64 %247, 0
  %249 = and i1 %15, %248
  br i1 %249, label %st.tile, label %st.edge

st.tile:                                          ; preds = %ld.tile.done
  %250 = insertelement <4 x float> poison, float %236, i64 0
  %251 = insertelement <4 x float> %250, float %237, i64 1
  %252 = insertelement <4 x float> %251, float %238, i64 2
  %253 = insertelement <4 x float> %252, float %239, i64 3
  store <4 x float> %253, ptr addrspace(1) %244, align 16
  %254 = getelementptr i8, ptr addrspace(1) %244, i64 2048
  %255 = insertelement <4 x float> poison, float %240, i64 0
  %256 = insertelement <4 x float> %255, float %241, i64 1
  %257 = insertelement <4 x float> %256, float %242, i64 2
  %258 = insertelement <4 x float> %257, float %243, i64 3
  store <4 x float> %258, ptr addrspace(1) %254, align 16
  br label %st.tile.done

st.edge:                                          ; preds = %ld.tile.done
  %259 = bitcast float %236 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+0], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %244, i32 %259, i1 %14) #6
  %260 = or disjoint i32 %2, 1
  %261 = icmp slt i32 %260, %N
  %262 = bitcast float %237 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+4], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %244, i32 %262, i1 %261) #6
  %263 = or disjoint i32 %2, 2
  %264 = icmp slt i32 %263, %N
  %265 = bitcast float %238 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+8], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %244, i32 %265, i1 %264) #6
  %266 = or disjoint i32 %2, 3
  %267 = icmp slt i32 %266, %N
  %268 = bitcast float %239 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+12], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %244, i32 %268, i1 %267) #6
  %269 = or disjoint i32 %2, 512
  %270 = icmp slt i32 %269, %N
  %271 = bitcast float %240 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+2048], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %244, i32 %271, i1 %270) #6
  %272 = or disjoint i32 %2, 513
  %273 = icmp slt i32 %272, %N
  %274 = bitcast float %241 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+2052], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %244, i32 %274, i1 %273) #6
  %275 = or disjoint i32 %2, 514
  %276 = icmp slt i32 %275, %N
  %277 = bitcast float %242 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+2056], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %244, i32 %277, i1 %276) #6
  %278 = bitcast float %243 to i32
  tail call void asm sideeffect "@$2 st.global.b32 [$0+2060], $1;", "l,r,b,~{memory}"(ptr addrspace(1) %244, i32 %278, i1 %15) #6
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
